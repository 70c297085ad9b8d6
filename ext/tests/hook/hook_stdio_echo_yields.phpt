--TEST--
Hook: echo, print and printf() to a full STDOUT pipe wait in the loop inside a coroutine, in turns with fwrite(STDOUT) so no line is cut, also through ob_start() with a chunk size, and a displayed warning; a cancel lets go of the turn and fclose(STDOUT) under a waiting echo throws; ob_flush(), a compiler warning, a fatal error and HOOK_STDIO off block as in PHP
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/../http/server.inc';

/*
 * The child reports on STDERR; "drain" asks the parent to start reading
 * the child's STDOUT a moment later, after the writers have filled the
 * pipe (64 KB). Each writer notes whether the ticker ran during its writes:
 * only a write that waits in the loop lets it.
 */
$child = tempnam(sys_get_temp_dir(), 'rapier-echo-');
file_put_contents($child, <<<'PHP'
<?php
use Rapier\Coroutine;

function say(string $line): void
{
    fwrite(STDERR, "$line\n");
}

function message(Throwable $e): string
{
    return $e::class . ': ' . preg_replace('/#\d+/', '#N', $e->getMessage());
}

$mode = $argv[1];
Rapier\run(function () use ($mode) {
    $ticks = 0;
    $stop = false;
    Rapier\go(function () use (&$ticks, &$stop) {
        while (!$stop) {
            Coroutine::sleep(0.005);
            $ticks++;
        }
    });
    $ticked = function (callable $write) use (&$ticks): bool {
        $before = $ticks;
        $write();
        return $ticks > $before;
    };

    if ($mode === 'plain' || $mode === 'buffered' || $mode === 'off') {
        if ($mode === 'buffered') {
            // Every 4 KB the buffer is passed on from its own memory, which the next echo refills.
            ob_start(null, 4096);
        }
        if ($mode === 'off') {
            Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_STDIO);
        }
        // Each writes lines of its own letter.
        $writers = [
            'e' => ['echo', function (string $line) { echo $line; }],
            'p' => ['print', fn (string $line) => print($line)],
            'r' => ['printf', fn (string $line) => printf('%s', $line)],
            'w' => ['fwrite', fn (string $line) => fwrite(STDOUT, $line)],
        ];
        say('drain');
        $wg = new Rapier\WaitGroup();
        $report = [];
        foreach ($writers as $letter => [$name, $write]) {
            $wg->add();
            Rapier\go(function () use ($letter, $name, $write, $wg, $ticked, &$report) {
                $any = false;
                for ($i = 0; $i < 4; $i++) {
                    $any = $ticked(fn () => $write(str_repeat($letter, 100000) . "\n")) || $any;
                }
                $report[$name] = "$name: ticked during its writes: " . ($any ? 'yes' : 'no');
                $wg->done();
            });
        }
        $wg->wait();
        if ($mode === 'buffered') {
            ob_end_flush();
        }
        ksort($report);
        array_map('say', $report);
    } elseif ($mode === 'ob_flush') {
        // ob_flush() writes with its buffer off the output stack: nothing may run meanwhile.
        ob_start();
        echo str_repeat('o', 200000) . "\n";
        say('drain');
        say('ob_flush: ticked during it: ' . ($ticked(fn () => ob_flush()) ? 'yes' : 'no'));
        ob_end_clean();
    } elseif ($mode === 'warning' || $mode === 'compile' || $mode === 'fatal') {
        // Fill the pipe to the brim without waiting: a page at a time while it has room for one.
        ini_set('log_errors', '0');
        do {
            $r = $e = null;
            $w = [STDOUT];
            $room = stream_select($r, $w, $e, 0) > 0;
        } while ($room && fwrite(STDOUT, str_repeat('f', 4096)));
        say('drain');
        if ($mode === 'warning') {
            say('warning: ticked during its display: ' . ($ticked(fn () => trigger_error('a warning', E_USER_WARNING)) ? 'yes' : 'no'));
        } elseif ($mode === 'compile') {
            // A warning of PHP's compiler, displayed while it compiles the file: its state is global.
            $file = tempnam(sys_get_temp_dir(), 'rapier-echo-compile-');
            file_put_contents($file, '<?php declare(no_such_directive=1);');
            say('compile warning: ticked during its display: ' . ($ticked(fn () => include $file) ? 'yes' : 'no'));
            unlink($file);
        } else {
            // PHP bails out after displaying a fatal error; the shutdown function tells.
            $before = $ticks;
            register_shutdown_function(function () use (&$ticks, $before) {
                say('fatal error: ticked during its display: ' . ($ticks > $before ? 'yes' : 'no'));
            });
            trigger_error('a fatal error', E_USER_ERROR);
        }
    } elseif ($mode === 'cancel') {
        // Nobody reads STDOUT until the end: the holder's echo fills the pipe and waits for room.
        $holder = Rapier\go(function () {
            try {
                echo str_repeat('x', 200000) . "\n";
                say('holder: no exception');
            } catch (Rapier\CanceledException $e) {
                say('holder: ' . message($e));
            }
        });
        $queued = Rapier\go(function () {
            try {
                echo "queued\n";
                say('queued: no exception');
            } catch (Rapier\CanceledException $e) {
                say('queued: ' . message($e));
            }
        });
        Coroutine::sleep(0.02);
        try {
            fclose(STDOUT);
            say('fclose: no exception');
        } catch (Rapier\Exception $e) {
            say('fclose: ' . message($e));
        }
        Coroutine::cancel($queued);
        Coroutine::cancel($holder);
        Coroutine::sleep(0.01);
        say('drain');
        echo "\nafter the cancels\n";
    }
    $stop = true;
});
PHP);

/* Runs the child in $mode: what it said on STDERR, then a summary of its STDOUT. */
function run_child(string $child, string $mode): string
{
    $said = $stdout = '';
    Rapier\run(function () use ($child, $mode, &$said, &$stdout) {
        /*
         * pcre.jit=0, as scripts/test.sh runs the tests under valgrind: it cannot follow JIT-compiled
         * patterns. The fatal error's bailout leaves the compiled script unfreed, as in stock PHP: under
         * make asan, LeakSanitizer is off for that child only.
         */
        $env = $mode === 'fatal' ? ['LSAN_OPTIONS' => 'detect_leaks=0'] + getenv() : null;
        $proc = proc_open([PHP_BINARY, '-n', '-d', 'pcre.jit=0', '-d', 'extension=' . http_test_extension_path(), $child, $mode],
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
        // A child blocked for good is ended, and the test fails.
        $watchdog = Rapier\go(function () use ($proc) {
            try {
                Rapier\Coroutine::sleep(30);
                proc_terminate($proc, 9);
                echo "child killed after 30 s\n";
            } catch (Rapier\CanceledException) {
            }
        });
        $drain = new Rapier\Channel(1);
        $reader = Rapier\go(function () use ($pipes, $drain, &$stdout) {
            $drain->pop();
            $counts = [];
            $cut = 0;
            while (($line = fgets($pipes[1])) !== false) {
                if (strlen($line) > 100 && strlen($line) - 1 === strspn($line, $line[0]) && $line[-1] === "\n") {
                    // The lengths written whole, the filler of a pipe ("f", as long as the pipe), or "cut"
                    // (the canceled writer's first bytes).
                    $length = strlen($line) - 1;
                    $key = $line[0] . ' ' . (in_array($length, [100000, 200000], true) ? $length : ($line[0] === 'f' ? 'filler' : 'cut'));
                    $counts[$key] = ($counts[$key] ?? 0) + 1;
                } elseif (strlen($line) > 100) {
                    $cut++;
                } else {
                    $stdout .= 'STDOUT: ' . preg_replace('/ in \S+ on line \d+/', ' in CHILD on line N', $line);
                }
            }
            ksort($counts);
            $stdout .= "lines of one letter: " . json_encode($counts) . ", mixed lines: $cut\n";
        });
        while (($line = fgets($pipes[2])) !== false) {
            if ($line === "drain\n") {
                Rapier\go(function () use ($drain) {
                    /* Long enough for the child's ticker to tick however loaded the machine. */
                    Rapier\Coroutine::sleep(0.2);
                    $drain->push(true);
                });
            } else {
                $said .= $line;
            }
        }
        while (Rapier\Coroutine::exists($reader)) {
            Rapier\Coroutine::sleep(0.01);
        }
        Rapier\Coroutine::cancel($watchdog);
        $said .= 'exit: ' . proc_close($proc) . "\n";
    });
    return "-- $mode\n$said$stdout";
}

foreach (['plain', 'buffered', 'off', 'ob_flush', 'warning', 'compile', 'fatal', 'cancel'] as $mode) {
    echo run_child($child, $mode);
}
unlink($child);
?>
--EXPECT--
-- plain
echo: ticked during its writes: yes
fwrite: ticked during its writes: yes
print: ticked during its writes: yes
printf: ticked during its writes: yes
exit: 0
lines of one letter: {"e 100000":4,"p 100000":4,"r 100000":4,"w 100000":4}, mixed lines: 0
-- buffered
echo: ticked during its writes: yes
fwrite: ticked during its writes: yes
print: ticked during its writes: yes
printf: ticked during its writes: yes
exit: 0
lines of one letter: {"e 100000":4,"p 100000":4,"r 100000":4,"w 100000":4}, mixed lines: 0
-- off
echo: ticked during its writes: no
fwrite: ticked during its writes: no
print: ticked during its writes: no
printf: ticked during its writes: no
exit: 0
lines of one letter: {"e 100000":4,"p 100000":4,"r 100000":4,"w 100000":4}, mixed lines: 0
-- ob_flush
ob_flush: ticked during it: no
exit: 0
lines of one letter: {"o 200000":1}, mixed lines: 0
-- warning
warning: ticked during its display: yes
exit: 0
STDOUT: Warning: a warning in CHILD on line N
lines of one letter: {"f filler":1}, mixed lines: 0
-- compile
compile warning: ticked during its display: no
exit: 0
STDOUT: Warning: Unsupported declare 'no_such_directive' in CHILD on line N
lines of one letter: {"f filler":1}, mixed lines: 0
-- fatal
fatal error: ticked during its display: no
exit: 255
STDOUT: Fatal error: a fatal error in CHILD on line N
lines of one letter: {"f filler":1}, mixed lines: 0
-- cancel
fclose: Rapier\Exception: Cannot close fd 1 (STDOUT): coroutine #N is waiting on it; let that coroutine close it
queued: Rapier\CanceledException: Coroutine was canceled while waiting for its turn to write to fd 1 (STDOUT)
holder: Rapier\CanceledException: Coroutine was canceled while writing fd 1 (STDOUT)
exit: 0
STDOUT: after the cancels
lines of one letter: {"x cut":1}, mixed lines: 0