--TEST--
HTTP: a client that pipelines static-file requests and never reads the answers is closed after write_timeout, and the server goes on serving others meanwhile
--EXTENSIONS--
rapier
sockets
--FILE--
<?php
require __DIR__ . '/server.inc';
require __DIR__ . '/static.inc';
$root = http_static_make();
$srv = http_server_start('function ($req, $res) { $res->end("handler"); }',
    ['document_root' => "$root/pub", 'write_timeout' => 0.5, 'read_timeout' => 30]);

// A small receive buffer and no reading: the server's answers soon stop
// fitting, while requests padded to 2 KB keep arriving behind them. The
// answer blocked with requests waiting used to keep the server busy in a
// loop of read events it would not act on, with no timeout at all.
$s = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
socket_set_option($s, SOL_SOCKET, SO_RCVBUF, 4096);
socket_connect($s, '127.0.0.1', $srv->port);
socket_set_nonblock($s);
$request = "HEAD /digits.txt HTTP/1.1\r\nHost: x\r\nX-Pad: " . str_repeat('p', 2000) . "\r\n\r\n";
$pending = str_repeat($request, 100);
$sent = 0;
$others = null;
// Until the server closes (a write then fails): reading before that would
// unblock its answers, and the connection would go on for ever.
$give_up = microtime(true) + http_test_timeout(10);
while (microtime(true) < $give_up) {
    $n = @socket_write($s, $pending);
    if ($n === false) {
        if (socket_last_error($s) !== SOCKET_EAGAIN) {
            break;   // the server closed: what this test waits for
        }
        socket_clear_error($s);
        // The answers are stuck: others are served meanwhile.
        $others ??= http_get($srv->port, '/style.css')['body'];
        usleep(20000);
        continue;
    }
    $sent += $n;
    $pending = (string) substr($pending, $n) ?: str_repeat($request, 100);
}
echo $sent > 100 * strlen($request) ? "sent many requests\n" : "sent only $sent bytes\n";
echo 'others served: ', $others ?? "none asked\n";

// Closed: reading drains what the server wrote, then ends (EOF or reset).
socket_set_block($s);
socket_set_option($s, SOL_SOCKET, SO_RCVTIMEO, ['sec' => (int) http_test_timeout(3), 'usec' => 0]);
do {
    $chunk = @socket_read($s, 65536);
} while (is_string($chunk) && $chunk !== '');
$why = socket_last_error($s);
echo $chunk === '' || $why === SOCKET_ECONNRESET ? "closed by the server\n" : "still open (error $why)\n";
socket_close($s);
http_report_stop($srv);
?>
--EXPECT--
sent many requests
others served: body{color:red}
closed by the server
exit: 0
