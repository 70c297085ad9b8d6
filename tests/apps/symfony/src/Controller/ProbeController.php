<?php

namespace App\Controller;

use App\Service\Counter;
use App\Support\Probe;
use Symfony\Component\DependencyInjection\ContainerInterface;
use Symfony\Component\HttpFoundation\JsonResponse;

/** Sets per-request state of every kind, and reports what a later request sees of it. */
class ProbeController
{
    public function __construct(private Counter $counter, private ContainerInterface $container)
    {
    }

    public function set(): JsonResponse
    {
        Probe::$value = 'static';
        $this->container->set('probe.instance', new \ArrayObject(['instance']));
        $this->counter->value = 'singleton';
        $GLOBALS['probe_global'] = 'global';
        $_SESSION = ['probe' => 'session'];
        header('X-Leak: 1');

        return new JsonResponse(['set' => true]);
    }

    public function get(): JsonResponse
    {
        return new JsonResponse([
            'static' => Probe::$value,
            'instance' => $this->container->has('probe.instance') ? $this->container->get('probe.instance')[0] : null,
            'config' => null,
            'singleton' => $this->counter->value,
            'global' => $GLOBALS['probe_global'] ?? null,
            'session' => $_SESSION['probe'] ?? null,
        ]);
    }
}
