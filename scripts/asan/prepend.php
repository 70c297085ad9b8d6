<?php

/*
 * make asan runs every PHP process with this prepended (scripts/asan/php).
 *
 * A release build of PHP never collects cycles at shutdown: it calls each
 * object's free handler and leaves the memory to its allocator, so with
 * USE_ZEND_ALLOC=0 every object still in a cycle at exit (a handler closure
 * that uses $server, which holds the closure) is reported as leaked,
 * Rapier's or not. Debug builds of PHP collect cycles before they check for
 * leaks; this does the same as the last shutdown function: it drops the
 * script's globals and collects, so what LeakSanitizer still reports was
 * really lost.
 */

declare(strict_types=1);

register_shutdown_function(static function (): void {
    register_shutdown_function(static function (): void {
        foreach (array_keys($GLOBALS) as $name) {
            if ($name !== 'GLOBALS') {
                unset($GLOBALS[$name]);
            }
        }
        gc_collect_cycles();
    });
});
