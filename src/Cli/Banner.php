<?php

declare(strict_types=1);

namespace Rapier\Cli;

/** What `rapier serve` prints as it starts: a few aligned lines on a terminal, one line otherwise (logs). */
final class Banner
{
    /** @param array<string, mixed> $options the Server options in effect */
    public static function render(ServeConfig $config, string $kind, array $options, bool $terminal): string
    {
        $address = $config->url();
        $versions = sprintf('Rapier %s, PHP %s', phpversion('rapier'), PHP_VERSION);
        $workers = $config->workers === 0 ? 'none: one process serves'
            : sprintf('%d worker%s%s', $config->workers, $config->workers === 1 ? '' : 's',
                $config->taskWorkers > 0 ? ", {$config->taskWorkers} task workers" : '');
        $concurrency = isset($options['concurrency']) && $options['concurrency'] > 0
            ? "{$options['concurrency']} request" . ($options['concurrency'] === 1 ? '' : 's') . ' at a time per worker'
            : 'unlimited coroutines per worker';
        $watching = $config->watchPoll ? 'watching for changes by polling' : 'watching for changes';
        $mode = implode(', ', array_filter([
            $config->workers === 0 ? 'single process' : 'master + workers',
            $config->watch ? $watching : null,
            isset($options['max_requests']) ? "recycled after {$options['max_requests']} requests" : null,
        ]));
        if (!$terminal) {
            return sprintf("rapier: serving %s (%s) on %s, %s%s (%s)\n", $config->app, $kind, $address,
                $config->workers === 0 ? 'in a single process' : $workers, $config->watch ? ", $watching" : '', $versions);
        }
        $lines = [
            'app' => "{$config->app} ($kind)",
            'address' => $address,
            'workers' => "$workers; $concurrency",
            'mode' => $mode,
        ];
        if ($config->httpPort !== null) {
            $lines['redirect'] = sprintf('plain HTTP on port %d, to HTTPS', $config->httpPort);
        }
        if ($config->documentRoot !== null) {
            $lines['static'] = $config->documentRoot;
        }
        if ($config->tables !== []) {
            $lines['tables'] = implode(', ', array_map(fn (string $name, array $table) => "$name ({$table['size']} rows)",
                array_keys($config->tables), $config->tables));
        }
        if ($config->workers > 0) {
            $lines['pid file'] = "{$config->pidFile} (rapier status | reload | stop --pid-file ...)";
        }
        if ($config->logFile !== null) {
            $lines['log'] = $config->logFile;
        }
        $text = "\n  $versions\n\n";
        foreach ($lines as $label => $value) {
            $text .= sprintf("  %-9s %s\n", $label, $value);
        }

        return $text . "\n";
    }
}
