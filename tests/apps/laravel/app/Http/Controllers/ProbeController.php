<?php

namespace App\Http\Controllers;

use App\Support\Counter;
use App\Support\Probe;
use Illuminate\Routing\Controller;

/** Sets per-request state of every kind, and reports what a later request sees of it. */
class ProbeController extends Controller
{
    /** State in the controller instance itself (Laravel caches it on the route). */
    private ?string $seen = null;

    public function __invoke(string $action, Counter $counter)
    {
        return $action === 'set' ? $this->set($counter) : $this->get($counter);
    }

    private function set(Counter $counter)
    {
        Probe::$value = 'static';
        app()->instance('probe.instance', 'instance');
        config(['probe.config' => 'config']);
        $counter->value = 'singleton';
        $GLOBALS['probe_global'] = 'global';
        $_SESSION = ['probe' => 'session'];
        app()->setLocale('fr');
        header('X-Leak: 1');
        $this->seen = 'controller';

        return response()->json(['set' => true]);
    }

    private function get(Counter $counter)
    {
        return response()->json([
            'static' => Probe::$value,
            'instance' => app()->bound('probe.instance') ? app('probe.instance') : null,
            'config' => config('probe.config'),
            'singleton' => $counter->value,
            'global' => $GLOBALS['probe_global'] ?? null,
            'session' => $_SESSION['probe'] ?? null,
            'locale' => app()->getLocale(),
            'controller' => $this->seen,
        ]);
    }
}
