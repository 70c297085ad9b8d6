--TEST--
Hostile: seeded random frames on the channels between the server's processes (a worker's and a task worker's message listeners, the task listener), from a process of the server's own user: garbage, lengths past the limit, unknown and misplaced kinds, payloads that are not serialize()'s or unserialize to odd values, frames cut short, channels closed mid-frame; beside them clean channels whose every message must be handled once and in order: no worker dies, a task still runs and the server stops cleanly
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/../http/workers.inc';

/* Longer hunts, or one seed again: RAPIER_CHANNEL_RANDOM_SEED and RAPIER_CHANNEL_RANDOM_CHANNELS. */
$channels = (int) (getenv('RAPIER_CHANNEL_RANDOM_CHANNELS') ?: (http_test_valgrind() ? 20 : (http_test_asan() ? 60 : 150)));
$seed = (int) (getenv('RAPIER_CHANNEL_RANDOM_SEED') ?: 1);

$handler = 'function ($req, $res) use ($server) {
    $res->json(["pid" => getmypid(), "task" => $server->task("still there")]);
}';
$after = '$server->on("task", fn ($data) => is_string($data) ? strtoupper($data) : gettype($data));
$server->on("message", function (mixed $m, int $from) {
    /* One write per line: the workers share the pipe. */
    if (is_string($m) && str_starts_with($m, "clean:")) {
        echo "$m\n";
    }
});';
$srv = new WorkersTestServer($handler, ['workers' => 1, 'task_workers' => 1, 'message_max_payload' => 4096,
    'task_max_payload' => 4096, 'shutdown_timeout' => 2], '', $after);
$st = $srv->status();
$pids = array_column($st['workers'], 'pid', 'role');
$workerListeners = workers_abstract_listeners($pids['worker']);
$taskWorkerListeners = workers_abstract_listeners($pids['task_worker']);
if (count($workerListeners) !== 1 || count($taskWorkerListeners) !== 2) {
    die("expected 1 + 2 listeners, found " . count($workerListeners) . " + " . count($taskWorkerListeners) . "\n");
}
/* Of the task worker's two, the task listener is the one that answers a task call. */
function answers_a_task_call(string $name): bool
{
    $s = stream_socket_client("unix://\0$name", $errno, $errstr, 2);
    $payload = serialize('probe');
    fwrite($s, workers_channel_frame($payload, 1, 1));
    stream_set_timeout($s, (int) ceil(http_test_timeout(1)));
    $answer = fread($s, 13);
    fclose($s);
    return is_string($answer) && strlen($answer) === 13 && ord($answer[12]) === 2;
}
$taskListener = answers_a_task_call($taskWorkerListeners[0]) ? $taskWorkerListeners[0] : $taskWorkerListeners[1];
/* The message listeners first, the task listener last. */
$listeners = [$workerListeners[0], ...array_values(array_diff($taskWorkerListeners, [$taskListener])), $taskListener];

/** A payload: serialize()'s of something odd, or not serialize()'s at all. */
function random_payload(): string
{
    $values = [null, false, 1.5, -1, '', str_repeat('p', mt_rand(1, 3000)), [1, [2, [3]]], new ArrayObject([1]),
        new SplObjectStorage(), new DateTimeImmutable('@0'), new Exception('x'), new SplFixedArray(3)];
    $p = serialize($values[array_rand($values)]);
    switch (mt_rand(0, 5)) {
        case 0:
            return $p;
        case 1:
            return substr($p, 0, mt_rand(0, strlen($p)));                     /* cut short */
        case 2:
            $p[mt_rand(0, max(0, strlen($p) - 1))] = chr(mt_rand(0, 255));    /* a byte changed */
            return $p;
        case 3:
            return 'a:' . mt_rand(0, 1 << 30) . ':{' . str_repeat('i:0;', mt_rand(0, 5));  /* a count it does not have */
        case 4:
            return str_repeat('a:1:{i:0;', mt_rand(1, 3000)) . 'N;';          /* nesting without its ends */
        default:
            return mt_rand(0, 1) ? random_bytes(mt_rand(1, 200)) : '';
    }
}

function random_dirty_frame(): string
{
    $kind = [0, 1, 2, 3, 4, 5, 5, 5, 6, 255][mt_rand(0, 9)];
    $id = [0, 1, -1, PHP_INT_MAX, mt_rand()][mt_rand(0, 4)];
    switch (mt_rand(0, 9)) {
        case 0:
            return workers_channel_frame('', $kind, $id, mt_rand(4097 + 9, 0xffffffff)); /* past the limit */
        case 1:
            return workers_channel_frame('', $kind, $id, mt_rand(0, 8)); /* shorter than a header */
        case 2:
            return random_bytes(mt_rand(1, 64)); /* no frame at all */
        default:
            return workers_channel_frame(random_payload(), $kind, $id);
    }
}

mt_srand($seed);
$open = [];
$clean = [];   /* channel number => [listener, count] */
for ($c = 0; $c < $channels; $c++) {
    $listener = $listeners[mt_rand(0, 2)];
    $s = @stream_socket_client("unix://\0$listener", $errno, $errstr, 2);
    if ($s === false) {
        die("channel $c: no connection: $errstr\n");
    }
    stream_set_blocking($s, false);
    $bytes = '';
    if (mt_rand(0, 2) === 0 && $listener !== $taskListener) {
        /* Clean: sound messages only, written in pieces (the task listener takes no messages). */
        $n = mt_rand(1, 30);
        for ($i = 0; $i < $n; $i++) {
            $bytes .= workers_channel_frame(serialize("clean:$seed:$c:$i"), 5, mt_rand(0, 3));
        }
        $clean[$c] = $n;
    } else {
        for ($i = mt_rand(1, 20); $i > 0; $i--) {
            $bytes .= random_dirty_frame();
        }
        if (mt_rand(0, 3) === 0) {
            $bytes = substr($bytes, 0, mt_rand(0, strlen($bytes)));               /* closed mid-frame */
        }
    }
    while ($bytes !== '') {
        $piece = substr($bytes, 0, mt_rand(1, 8192));
        $w = @fwrite($s, $piece);
        if ($w === false || $w === 0) {
            /* Closed by the worker (a broken frame) or full: a clean channel must never be. */
            if (isset($clean[$c])) {
                $r = [$s]; $wr = [$s]; $e = null;
                stream_select($r, $wr, $e, 0, 10000);
                if (feof($s)) {
                    die("seed $seed channel $c: a clean channel was closed by the worker\n");
                }
                continue;
            }
            break;
        }
        $bytes = substr($bytes, $w);
    }
    /* Some channels stay open while the next ones run; at most 8. */
    $open[] = $s;
    while (count($open) > 8 || (mt_rand(0, 2) === 0 && $open)) {
        fclose(array_shift($open));
    }
}

/* Every clean message handled once, in order per channel. */
$deadline = microtime(true) + http_test_timeout(10);
$expected = array_sum($clean);
do {
    preg_match_all("/^clean:$seed:(\\d+):(\\d+)$/m", $srv->http->output(), $m, PREG_SET_ORDER);
} while (count($m) < $expected && microtime(true) < $deadline && usleep(20000) === null);
$got = [];
foreach ($m as [, $c, $i]) {
    $got[(int) $c][] = (int) $i;
}
$wrong = 0;
foreach ($clean as $c => $n) {
    if (($got[$c] ?? []) !== range(0, $n - 1)) {
        $wrong++;
        echo "seed $seed channel $c: got ", json_encode($got[$c] ?? []), " of $n\n";
    }
}
echo "clean channels with a message missing, repeated or out of order: $wrong\n";
foreach ($open as $s) {
    fclose($s);
}

$j = workers_get_json($srv->port);
echo "a request and its task after it all: ", var_export($j['task'] ?? null, true), "\n";
$after = array_column($srv->status()['workers'], 'pid', 'role');
echo "the same worker and task worker: ", var_export($after === $pids, true), "\n";
$r = $srv->stop();
workers_report_stop($r);
/*
 * What the log may hold besides the master's notes: the message handlers'
 * reports of payloads they could not unserialize (PHP's own errors from
 * unserialize() included), each with its trace through runMessage().
 */
$unexpected = [];
foreach (preg_split('/^(?=Rapier: uncaught exception in coroutine)/m', $r['err']) as $block) {
    $block = preg_replace('/^.*\[rapier master \d+\] (info|notice):.*\n?/m', '', $block);
    if (trim($block) !== '' && !(str_starts_with($block, 'Rapier: uncaught exception') && str_contains($block, 'Rapier\Http\Server->runMessage('))) {
        $unexpected[] = $block;
    }
}
$log = implode('', $unexpected);
echo "anything else in the log: ", trim($log) === '' ? "no" : "yes:\n$log", "\n";
?>
--EXPECT--
clean channels with a message missing, repeated or out of order: 0
a request and its task after it all: 'STILL THERE'
the same worker and task worker: true
exit: 0
leftover processes: none
anything else in the log: no
