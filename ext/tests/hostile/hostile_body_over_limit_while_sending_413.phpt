--TEST--
Hostile: a client that keeps sending a body over max_body_size reads the 413 (no reset), whether the length was declared or chunked
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server(['max_body_size' => 1 << 20]);
$ctl = new HostileControl($srv->port);
/*
 * 4 MiB pushed without reading, as a client that does not wait for an
 * answer would. The server answers at once and keeps discarding what comes
 * for a moment (lingering close), so the answer is not lost to a reset.
 */
function push_then_read(int $port, string $head, string $piece): string
{
    $c = new HttpTestConn($port);
    $c->send($head);
    stream_set_blocking($c->sock, false);
    $pending = '';
    for ($sent = 0, $deadline = microtime(true) + 3; $sent < (4 << 20) && microtime(true) < $deadline;) {
        if ($pending === '') {
            $pending = $piece;
        }
        $n = @fwrite($c->sock, $pending);
        if ($n === false) {
            break;
        }
        $pending = substr($pending, $n);
        $n ? $sent += $n : usleep(1000);
    }
    return hostile_outcome($c);
}
$chunk = str_repeat('c', 65536);
echo "declared 64 MiB: ", push_then_read($srv->port,
    "POST /attack HTTP/1.1\r\nHost: x\r\nContent-Length: " . (64 << 20) . "\r\n\r\n", $chunk), "\n";
$ctl->check('declared');
echo "chunked, 64 KiB chunks: ", push_then_read($srv->port,
    "POST /attack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", "10000\r\n$chunk\r\n"), "\n";
$ctl->check('chunked');
echo "chunked, 100-byte chunks: ", push_then_read($srv->port,
    "POST /attack HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", str_repeat("64\r\n" . str_repeat('c', 100) . "\r\n", 600)), "\n";
$ctl->check('100-byte chunks');
echo $ctl->report(), "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);
?>
--EXPECT--
declared 64 MiB: 413 Content Too Large, closed
chunked, 64 KiB chunks: 413 Content Too Large, closed
chunked, 100-byte chunks: 413 Content Too Large, closed
control: all answered
reached the handler: []
exit: 0
