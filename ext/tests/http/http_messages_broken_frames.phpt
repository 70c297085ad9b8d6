--TEST--
HTTP messages: broken frames on a worker's message channel (from a process of the server's user: a bug, not an attack) never take the worker down: a length over message_max_payload closes the channel before its payload is read, a payload that is not serialize()'s is reported and dropped, an unknown kind is ignored, a frame cut short and abandoned is forgotten; the worker takes sound messages on, on new channels and on the one that carried the unknown kind; a sender that never reads the goodbye holds the stop only until shutdown_timeout
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/workers.inc';
$after = '$server->on("message", function ($message, $from) {
    echo "message: $message from $from\n";
});';
$srv = new WorkersTestServer(WORKERS_PID_HANDLER, ['workers' => 1, 'message_max_payload' => 1024, 'shutdown_timeout' => 1],
    '', $after);
$worker = array_values(array_filter($srv->status()['workers'], fn($w) => $w['role'] === 'worker'))[0]['pid'];
[$name] = workers_abstract_listeners($worker);

/* A message frame, from worker 42 unless said. */
function frame(string $payload, int $kind = 5, int $from = 42, ?int $length = null): string
{
    return workers_channel_frame($payload, $kind, $from, $length);
}

function channel(string $name)
{
    $s = stream_socket_client("unix://\0$name", $errno, $errstr, 2);
    stream_set_timeout($s, 1);
    return $s;
}

/** Whether the worker closed the channel within a second. */
function closed_by_worker($s): bool
{
    $deadline = microtime(true) + http_test_timeout(1);
    while (microtime(true) < $deadline) {
        if (fread($s, 1) === '' && feof($s)) {
            return true;
        }
    }
    return false;
}

$s = channel($name);
fwrite($s, frame('', 5, 42, 9 + 1025) . str_repeat('x', 100));
echo "a length over the limit closes the channel: ", var_export(closed_by_worker($s), true), "\n";

$s = channel($name);
fwrite($s, frame('not serialized') . frame(serialize('after the bad payload')));
$s2 = channel($name);
fwrite($s2, frame(serialize('ignored'), 99) . frame(serialize('after an unknown kind')));
$s3 = channel($name);
fwrite($s3, substr(frame(serialize('cut short')), 0, 20));
fclose($s3);
echo "sound ones after a bad payload and an unknown kind: ",
    var_export($srv->http->waitFor("message: after the bad payload from 42", 5)
        && $srv->http->waitFor("message: after an unknown kind from 42", 5), true), "\n";

$s4 = channel($name);
fwrite($s4, frame(serialize('on a new channel'), 5, 7));
echo "a new channel: ", var_export($srv->http->waitFor("message: on a new channel from 7", 5), true), "\n";
echo "requests still served: ", var_export(workers_get_json($srv->port)['pid'] === $worker, true), "\n";
$out = $srv->http->output();
echo "handled: ", substr_count($out, "message: "), " (nothing of the ignored, cut or oversized frames)\n";
/* $s4 stays open and never reads the worker's goodbye: the stop waits for it only until shutdown_timeout. */
fclose($s);
fclose($s2);
$t = microtime(true);
$r = $srv->stop();
workers_report_stop($r);
echo "a sender that ignores the goodbye holds the stop until shutdown_timeout, not longer: ",
    var_export(microtime(true) - $t >= 0.9 && microtime(true) - $t < http_test_timeout(4), true), "\n";
echo "the bad payload reported: ", var_export(str_contains($r['err'], 'Cannot unserialize the message'), true), "\n";
echo "same worker throughout: ", var_export(!str_contains($r['err'], 'exited with code 255') && !str_contains($r['err'], 'signal'), true), "\n";
?>
--EXPECT--
a length over the limit closes the channel: true
sound ones after a bad payload and an unknown kind: true
a new channel: true
requests still served: true
handled: 3 (nothing of the ignored, cut or oversized frames)
exit: 0
leftover processes: none
a sender that ignores the goodbye holds the stop until shutdown_timeout, not longer: true
the bad payload reported: true
same worker throughout: true
