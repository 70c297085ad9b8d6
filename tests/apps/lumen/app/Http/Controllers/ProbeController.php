<?php

namespace App\Http\Controllers;

use App\Support\Counter;
use App\Support\Probe;
use Laravel\Lumen\Routing\Controller;

/** Sets per-request state of every kind, and reports what a later request sees of it. */
class ProbeController extends Controller
{
    public function set(Counter $counter)
    {
        Probe::$value = 'static';
        app()->instance('probe.instance', 'instance');
        config(['probe.config' => 'config']);
        $counter->value = 'singleton';
        $GLOBALS['probe_global'] = 'global';
        $_SESSION = ['probe' => 'session'];
        app()->setLocale('fr');
        header('X-Leak: 1');

        return response()->json(['set' => true]);
    }

    public function get(Counter $counter)
    {
        return response()->json([
            'static' => Probe::$value,
            'instance' => app()->bound('probe.instance') ? app('probe.instance') : null,
            'config' => config('probe.config'),
            'singleton' => $counter->value,
            'global' => $GLOBALS['probe_global'] ?? null,
            'session' => $_SESSION['probe'] ?? null,
            'locale' => app()->getLocale(),
        ]);
    }
}
