<?php

declare(strict_types=1);

namespace Rapier\Metrics;

/**
 * An adapter that knows which of the application's routes served the
 * request it just handled (a framework's route pattern such as
 * `/users/{id}`). Metrics label requests with it; without it they use the
 * path with numeric segments collapsed (RouteLabel).
 */
interface RouteAware
{
    /** The route pattern of the request handle() served last, null when none matched. */
    public function lastRoute(): ?string;
}
