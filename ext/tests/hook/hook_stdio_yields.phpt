--TEST--
Hook: STDIN, php://stdin and php://fd/N reads and STDOUT writes wait in the loop inside a coroutine when their pipe is not ready; writers take turns so a line is never cut (also through a php://stdout beside STDOUT), a second reader and a close under a waiter throw, cancels let go of the turn; with HOOK_STDIO off and outside a run they block as in PHP
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/../http/server.inc';

/*
 * The child reports on STDERR. "want WORD" asks the parent to send WORD on
 * its STDIN a moment later (after the child has started waiting for it);
 * "drain" asks it to start reading the child's STDOUT a moment later (after
 * the writers have filled the pipe).
 */
$child = tempnam(sys_get_temp_dir(), 'rapier-stdio-');
file_put_contents($child, <<<'PHP'
<?php
use Rapier\Coroutine;

function want(string $word): void
{
    fwrite(STDERR, "want $word\n");
}

Rapier\run(function () {
    $ticks = 0;
    $stop = false;
    Rapier\go(function () use (&$ticks, &$stop) {
        while (!$stop) {
            Coroutine::sleep(0.005);
            $ticks++;
        }
    });

    want('first');
    $ticks = 0;
    $line = fgets(STDIN);
    fwrite(STDERR, sprintf("STDIN: %s, ticked meanwhile: %s\n", trim($line), $ticks > 0 ? 'yes' : 'no'));

    $stdin = fopen('php://stdin', 'r');
    want('second');
    $ticks = 0;
    $line = fgets($stdin);
    fwrite(STDERR, sprintf("php://stdin: %s, ticked meanwhile: %s\n", trim($line), $ticks > 0 ? 'yes' : 'no'));

    // A reader waits; a second reader and a close are refused until it has its line.
    $reader = Rapier\go(function () {
        $line = fgets(STDIN);
        fwrite(STDERR, "first reader: " . trim($line) . "\n");
    });
    Coroutine::sleep(0.01);
    foreach (['second reader' => fn () => fgets(STDIN), 'fclose' => fn () => fclose(STDIN)] as $what => $call) {
        try {
            $call();
            fwrite(STDERR, "$what: no exception\n");
        } catch (Rapier\Exception $e) {
            fwrite(STDERR, "$what: " . $e::class . ': ' . preg_replace('/#\d+/', '#N', $e->getMessage()) . "\n");
        }
    }
    want('third');
    while (Coroutine::exists($reader)) {
        Coroutine::sleep(0.01);
    }

    // Four writers, four 100 KB lines each: the pipe fills, each line goes out whole. The
    // fourth writes through php://stdout, a dup() of STDOUT's descriptor: one pipe all the same.
    fwrite(STDERR, "drain\n");
    $ticks = 0;
    $wg = new Rapier\WaitGroup();
    $streams = ['a' => STDOUT, 'b' => STDOUT, 'c' => STDOUT, 'd' => fopen('php://stdout', 'w')];
    foreach ($streams as $letter => $stream) {
        $wg->add();
        Rapier\go(function () use ($letter, $stream, $wg) {
            for ($i = 0; $i < 4; $i++) {
                fwrite($stream, str_repeat($letter, 100000) . "\n");
            }
            $wg->done();
        });
    }
    $wg->wait();
    fwrite(STDERR, sprintf("STDOUT written, ticked meanwhile: %s\n", $ticks > 0 ? 'yes' : 'no'));

    // php://fd/3: nobody reads it until the child has exited, so it stays full.
    $out = fopen('php://fd/3', 'w');
    $outcome = function (string $who, callable $call) {
        try {
            $call();
            fwrite(STDERR, "$who: no exception\n");
        } catch (Rapier\Exception $e) {
            fwrite(STDERR, "$who: " . $e::class . ': ' . preg_replace('/fd \d+/', 'fd N', $e->getMessage()) . "\n");
        }
    };
    $holder = Rapier\go(fn () => $outcome('holder', fn () => fwrite($out, str_repeat('x', 200000))));
    $queued = Rapier\go(fn () => $outcome('queued', fn () => fwrite($out, "y\n")));
    Coroutine::sleep(0.02);
    $outcome('fclose', function () use ($out) {
        try {
            fclose($out);
        } catch (Rapier\Exception $e) {
            throw new Rapier\Exception(preg_replace('/#\d+/', '#N', $e->getMessage()));
        }
    });
    Coroutine::cancel($queued);
    Coroutine::cancel($holder);
    Coroutine::sleep(0.01);
    fwrite(STDERR, "fclose after the cancels: " . var_export(fclose($out), true) . "\n");

    Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_STDIO);
    want('fourth');
    $ticks = 0;
    $line = fgets(STDIN);
    fwrite(STDERR, sprintf("HOOK_STDIO off: %s, ticked meanwhile: %s\n", trim($line), $ticks > 0 ? 'yes' : 'no'));
    $stop = true;
});

want('fifth');
fwrite(STDERR, "outside a run: " . trim(fgets(STDIN)) . "\n");
fwrite(STDOUT, "the end\n");
PHP);

// What the child says on STDERR, then what came on its STDOUT: each in its own order.
$said = $stdout = '';
Rapier\run(function () use ($child, &$proc, &$pipes, &$said, &$stdout) {
    // Opened in the run, so that the parent's own reads of the pipes wait in the loop. Started
    // without a shell, so that valgrind's stage traces this PHP (scripts/test.sh skips shells).
    $proc = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . http_test_extension_path(), $child],
        [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w'], 3 => ['pipe', 'w']], $pipes);
    // A child blocked for good (a wait that held its whole process) is ended, and the test fails.
    $watchdog = Rapier\go(function () use ($proc) {
        try {
            Rapier\Coroutine::sleep(30);
            proc_terminate($proc, 9);
            echo "child killed after 30 s\n";
        } catch (Rapier\CanceledException) {
        }
    });
    $drain = new Rapier\Channel(1);
    Rapier\go(function () use ($pipes, $drain, &$stdout) {
        $drain->pop();
        $counts = [];
        $broken = 0;
        while (($line = fgets($pipes[1])) !== false) {
            if (strlen($line) === 100001 && strspn($line, $line[0]) === 100000) {
                $counts[$line[0]] = ($counts[$line[0]] ?? 0) + 1;
            } elseif (strlen($line) > 100) {
                $broken++;
            } else {
                $stdout .= "STDOUT: $line";
            }
        }
        ksort($counts);
        $stdout .= "whole lines: " . json_encode($counts) . ", cut lines: $broken\n";
    });
    while (($line = fgets($pipes[2])) !== false) {
        if (str_starts_with($line, 'want ')) {
            /* Long enough for the child's ticker to tick however loaded the machine. */
            Rapier\Coroutine::sleep(0.2);
            fwrite($pipes[0], substr($line, 5));
        } elseif ($line === "drain\n") {
            Rapier\go(function () use ($drain) {
                Rapier\Coroutine::sleep(0.2);
                $drain->push(true);
            });
        } else {
            $said .= $line;
        }
    }
    Rapier\Coroutine::cancel($watchdog);
});
echo $said, $stdout;
echo "fd 3 got ", strlen(stream_get_contents($pipes[3])) > 0 ? "the holder's first bytes" : "nothing", "\n";
echo "exit: ", proc_close($proc), "\n";

// STDIN from a regular file: PHP's own stream, never waited on.
file_put_contents($child, '<?php Rapier\run(fn () => print(stream_get_contents(STDIN)));');
$input = tempnam(sys_get_temp_dir(), 'rapier-stdio-in-');
file_put_contents($input, "from a file\n");
$proc = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . http_test_extension_path(), $child],
    [0 => ['file', $input, 'r'], 1 => ['pipe', 'w']], $pipes);
echo stream_get_contents($pipes[1]);
proc_close($proc);
unlink($input);
unlink($child);
?>
--EXPECT--
STDIN: first, ticked meanwhile: yes
php://stdin: second, ticked meanwhile: yes
second reader: Rapier\Exception: Cannot read fd 0 (STDIN): coroutine #N is already reading it; read it in one coroutine and pass what it reads on (a Rapier\Channel)
fclose: Rapier\Exception: Cannot close fd 0 (STDIN): coroutine #N is waiting on it; let that coroutine close it
first reader: third
STDOUT written, ticked meanwhile: yes
fclose: Rapier\Exception: Cannot close fd N: coroutine #N is waiting on it; let that coroutine close it
queued: Rapier\CanceledException: Coroutine was canceled while waiting for its turn to write to fd N
holder: Rapier\CanceledException: Coroutine was canceled while writing fd N
fclose after the cancels: true
HOOK_STDIO off: fourth, ticked meanwhile: no
outside a run: fifth
STDOUT: the end
whole lines: {"a":4,"b":4,"c":4,"d":4}, cut lines: 0
fd 3 got the holder's first bytes
exit: 0
from a file
