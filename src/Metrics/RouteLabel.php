<?php

declare(strict_types=1);

namespace Rapier\Metrics;

/**
 * The `route` label of a request: the framework's pattern when the
 * adapter knows it, else the path with every all-digit segment replaced
 * by `{n}` (`/users/42` and `/users/43` are one series). A worker keeps
 * at most MAX_ROUTES distinct routes; the rest share the label `other`,
 * so a client walking random URLs cannot grow the registry (and the
 * scrape) without bound.
 */
final class RouteLabel
{
    /** Prometheus copes with a few thousand series per target; 500 routes x statuses x methods stays there. */
    public const MAX_ROUTES = 500;
    public const OTHER = 'other';

    /** @var array<string, true> */
    private array $seen = [];

    public static function collapse(string $path): string
    {
        return (string) preg_replace('#(?<=/)[0-9]+(?=/|$)#', '{n}', $path);
    }

    /** The label for $route (a pattern, or null to use $path), counting it against the cap. */
    public function label(?string $route, string $path): string
    {
        $label = $route ?? self::collapse($path);
        if (isset($this->seen[$label])) {
            return $label;
        }
        if (count($this->seen) >= self::MAX_ROUTES) {
            return self::OTHER;
        }
        $this->seen[$label] = true;

        return $label;
    }
}
