--TEST--
HTTP messages: a stream of 20,000 messages in bursts from a user process to worker 1, slower than its sender (it stops reading at 1,000 running handlers, so its channel holds unread messages), loses none and repeats none across a reload: the old worker reads its channel to the end, its successor takes the rest, in order; after kill -9 of the worker the replacement gets the stream again, nothing repeated
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip too slow under valgrind for make test: messages run under valgrind in http_messages_round_trip; the asan stage runs it'); ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
const TOTAL = 20000;
/* Each receiving process writes the numbers it got to a file of its own: stdout would interleave, and fill its pipe. */
$dir = sys_get_temp_dir() . '/rapier-messages-' . getmypid();
@mkdir($dir);
register_shutdown_function(function () use ($dir) {
    array_map('unlink', glob("$dir/*"));
    @rmdir($dir);
});
/*
 * The stream comes in four parts of 5,000; the sender waits for the test's
 * go-ahead (a file) after each of the first three, so that each event (the
 * reload, the kill) happens while messages are on their way, and the next
 * process of worker 1 gets a part of its own whatever the machine's speed.
 */
$after = '$server->addProcess(function ($server) {
    $seq = 0;
    foreach (["reloaded", "counted", "replaced", null] as $gate) {
        for ($n = 0; $n < 5000; $n++) {
            $server->sendMessage(++$seq, 1);
            /* In bursts, so that the channel often holds messages not read yet. */
            if ($seq % 20 === 0) {
                Rapier\Coroutine::sleep(0.002);
            }
        }
        while ($gate !== null && !file_exists(' . var_export($dir, true) . ' . "/$gate")) {
            Rapier\Coroutine::sleep(0.01);
        }
    }
    /* Exits cleanly at the stop (SIGTERM at its default action would kill it mid-run). */
    Rapier\Coroutine::waitSignal(15);
});
$server->on("message", function (int $seq, int $from) {
    static $log;
    /*
     * A receiver slower than its sender (1,000 handlers at once, 0.2 s each):
     * it stops reading, so its channel holds messages not read yet when it
     * drains or dies.
     */
    Rapier\Coroutine::sleep(0.2);
    $log ??= fopen(' . var_export($dir, true) . ' . "/" . getmypid() . ".seq", "a");
    fwrite($log, "$seq\n");
});';
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 2], '', $after);

/** [seq => [pid, ...]] of what worker 1's processes have received so far. */
$received = function () use ($dir): array {
    $by = [];
    foreach (glob("$dir/*.seq") as $file) {
        foreach (file($file, FILE_IGNORE_NEW_LINES) as $seq) {
            $by[(int) $seq][] = (int) basename($file, '.seq');
        }
    }
    return $by;
};
$waitSeq = function (int $seq, float $timeout) use ($srv, $received): bool {
    $deadline = microtime(true) + http_test_timeout($timeout);
    while (microtime(true) < $deadline) {
        if (max(array_keys($received()) ?: [0]) >= $seq) {
            return true;
        }
        usleep(10000);
    }
    return false;
};
$worker1 = fn(array $st): ?int => array_values(array_filter($st['workers'],
    fn($w) => $w['role'] === 'worker' && $w['index'] === 1 && $w['state'] === 'ready'))[0]['pid'] ?? null;

echo "stream started: ", var_export($waitSeq(1000, 10), true), "\n";
$first = $worker1($srv->status());
workers_kill($srv->masterPid, SIGHUP);
$st = $srv->waitStatus(fn($st) => ($p = $worker1($st)) !== null && $p !== $first
    && count(array_filter($st['workers'], fn($w) => $w['role'] === 'worker')) === 2, 20, 'the new worker 1 alone');
$second = $worker1($st);
touch("$dir/reloaded");
echo "after the reload: ", var_export($waitSeq(10000, 20), true), "\n";

touch("$dir/counted");
$waitSeq(11000, 10);
workers_kill($second, SIGKILL);
$st = $srv->waitStatus(fn($st) => ($p = $worker1($st)) !== null && $p !== $second, 10, 'a replacement worker 1');
$third = $worker1($st);
touch("$dir/replaced");
echo "to the end: ", var_export($waitSeq(TOTAL, 20), true), "\n";

$by = $received();
$dupes = array_filter($by, fn($pids) => count($pids) > 1);
echo "repeated: ", count($dupes), "\n";
/* Which process took each message: the first worker, then its successor, then the replacement, in that order. */
$runs = [];
foreach (range(1, TOTAL) as $seq) {
    $who = isset($by[$seq]) ? match ($by[$seq][0]) { $first => 'first', $second => 'second', $third => 'third', default => 'other' } : 'lost';
    if ($runs === [] || end($runs)[0] !== $who) {
        $runs[] = [$who, $seq, $seq];
    } else {
        $runs[count($runs) - 1][2] = $seq;
    }
}
$order = array_column($runs, 0);
echo "takers in order: ", implode(' ', $order), "\n";
$lostRun = array_values(array_filter($runs, fn($r) => $r[0] === 'lost'));
$lost = $lostRun ? $lostRun[0][2] - $lostRun[0][1] + 1 : 0;
echo "lost only around the kill, fewer than 5000: ", var_export($lost < 5000, true), "\n";
workers_report_stop($srv->stop());
?>
--EXPECTREGEX--
stream started: true
after the reload: true
to the end: true
repeated: 0
takers in order: first second (lost )?third
lost only around the kill, fewer than 5000: true
exit: 0
leftover processes: none
