--TEST--
HTTP: a handler writing to STDOUT (fwrite() or echo) while the pipe behind it is full (a log collector that fell behind) waits in the loop: the worker answers other requests meanwhile, and the line goes out whole once the pipe drains; with HOOK_STDIO off the worker is stuck until then
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
/*
 * The test reads the server's STDOUT only when it stops the server, so a
 * 256 KB line fills the pipe (64 KB) and the write of /log (fwrite()) or
 * /echo has to wait for it.
 */
$handler = 'function ($req, $res) {
    if ($req->path === "/log") {
        fwrite(STDOUT, str_repeat("x", 256 << 10) . "\n");
        $res->end("logged");
        return;
    }
    if ($req->path === "/echo") {
        echo str_repeat("e", 256 << 10) . "\n";
        $res->end("logged");
        return;
    }
    $res->end("ok");
}';
/*
 * Whether the server sent anything within $seconds. For the answers that
 * must not come: a stuck worker stays stuck, so a fixed second tells, where
 * HttpTestConn's waits (for answers that must come, ending as soon as they
 * do) would wait out their full timeout, stretched twentyfold under valgrind.
 */
function sent_within(HttpTestConn $conn, float $seconds): bool
{
    $r = [$conn->sock];
    $w = $e = null;
    return stream_select($r, $w, $e, 0, (int) ($seconds * 1e6)) > 0;
}

$cases = [
    'HOOK_STDIO on, fwrite()' => ['/log', 'x', ''],
    'HOOK_STDIO on, echo' => ['/echo', 'e', ''],
    'HOOK_STDIO off, echo' => ['/echo', 'e', 'Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_STDIO);'],
];
foreach ($cases as $case => [$path, $letter, $code]) {
    $srv = http_server_start($handler, [], $code);
    $log = new HttpTestConn($srv->port);
    $log->send("GET $path HTTP/1.1\r\nHost: x\r\n\r\n");
    echo "$case, $path before the pipe drains: ", sent_within($log, 0.3) ? 'answered' : 'waiting', "\n";
    $ok = new HttpTestConn($srv->port);
    $ok->send("GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    $answered = $code === '' ? str_ends_with($ok->readAll(2), "\r\n\r\nok") : sent_within($ok, 1);
    echo "$case, /ok meanwhile: ", $answered ? 'answered' : 'no answer', "\n";
    // Stopping reads the server's STDOUT: the pipe drains, the write ends, the worker goes on.
    $r = $srv->stop();
    echo "$case, $path after: ", str_ends_with($log->readAll(5), "\r\n\r\nlogged") ? 'answered' : 'no answer', "\n";
    $line = str_repeat($letter, 256 << 10) . "\n";
    echo "$case, the line on STDOUT: ", str_contains($r['out'], $line) ? 'whole' : 'cut or missing', "\n";
}
?>
--EXPECT--
HOOK_STDIO on, fwrite(), /log before the pipe drains: waiting
HOOK_STDIO on, fwrite(), /ok meanwhile: answered
HOOK_STDIO on, fwrite(), /log after: answered
HOOK_STDIO on, fwrite(), the line on STDOUT: whole
HOOK_STDIO on, echo, /echo before the pipe drains: waiting
HOOK_STDIO on, echo, /ok meanwhile: answered
HOOK_STDIO on, echo, /echo after: answered
HOOK_STDIO on, echo, the line on STDOUT: whole
HOOK_STDIO off, echo, /echo before the pipe drains: waiting
HOOK_STDIO off, echo, /ok meanwhile: no answer
HOOK_STDIO off, echo, /echo after: answered
HOOK_STDIO off, echo, the line on STDOUT: whole
