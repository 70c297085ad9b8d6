<?php

/*
 * Four coroutines run shell commands at once. Inside a coroutine, exec(),
 * shell_exec(), system(), passthru(), backticks and popen()/pclose() read
 * the command's output and wait for its exit in the event loop, so the run
 * takes as long as the slowest command, not the sum of them; outside one
 * they are PHP's own, and block.
 *
 *     php -d extension=ext/modules/rapier.so examples/concurrent_commands.php
 */

declare(strict_types=1);

use function Rapier\go;
use function Rapier\run;

$start = hrtime(true);
$elapsed = static fn (): string => sprintf('%4.0f ms', (hrtime(true) - $start) / 1e6);

run(static function () use ($elapsed): void {
    go(static function () use ($elapsed): void {
        $last = exec('sleep 0.4; echo "exec: the last line"', $lines, $code);
        echo $elapsed(), "  $last (exit code $code)\n";
    });
    go(static function () use ($elapsed): void {
        $out = shell_exec('sleep 0.3; uname -s');
        echo $elapsed(), '  shell_exec: ', trim((string) $out), "\n";
    });
    go(static function () use ($elapsed): void {
        $pipe = popen('sleep 0.2; exit 3', 'r');
        $code = pclose($pipe);
        echo $elapsed(), "  pclose: exit code $code\n";
    });
    go(static function () use ($elapsed): void {
        $out = `sleep 0.1; echo hello`;
        echo $elapsed(), '  backticks: ', trim((string) $out), "\n";
    });
});

echo $elapsed(), "  all done: 1 s of commands took about 0.4 s\n";
