--TEST--
HTTP: a cancel while write(), end() or sendfile() waits for a slow client throws CanceledException and closes the connection
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
/*
 * The clients of /stream and /file never read, so each handler ends up
 * waiting for the socket to drain. Before, a cancel made that wait return
 * false like a departed client, and the handler ran on past its cancel:
 * past Coroutine::cancel(), and past shutdown_timeout into its next wait.
 */
$file = tempnam(sys_get_temp_dir(), 'rapier-sendfile-');
$fh = fopen($file, 'w');
ftruncate($fh, 16 << 20);
fclose($fh);
$srv = http_server_start('function ($req, $res) {
    $report = function (Rapier\CanceledException $e) use ($res) {
        echo "canceled: ", $e->getMessage(), "\n";
        echo "writable: ", var_export($res->isWritable(), true), "\n";
    };
    if ($req->path === "/cancel") {
        $res->end(var_export(Rapier\Coroutine::cancel($GLOBALS["stream"]), true));
        return;
    }
    try {
        if ($req->path === "/stream") {
            $GLOBALS["stream"] = Rapier\Coroutine::id();
            echo "streaming\n";
            $chunk = str_repeat("x", 1 << 20);
            try {
                for ($i = 0; $i < 64; $i++) {
                    if (!$res->write($chunk)) {
                        echo "write() returned false\n";
                        break;
                    }
                }
            } finally {
                echo "a later write(): ", var_export($res->write("more"), true), "\n";
            }
        } elseif ($req->path === "/end") {
            echo "ending\n";
            $sent = $res->end(str_repeat("y", 16 << 20));
            echo "end() returned ", var_export($sent, true), "\n";
        } else {
            echo "sending the file\n";
            $sent = $res->sendfile(' . var_export($file, true) . ');
            echo "sendfile() returned ", var_export($sent, true), "\n";
        }
    } catch (Rapier\CanceledException $e) {
        $report($e);
        return;
    }
    echo "ran on after the cancel\n";
    Rapier\Coroutine::sleep(5);
}', ['shutdown_timeout' => 0.5, 'write_timeout' => 30]);

echo "-- Coroutine::cancel() of a handler in write()\n";
$stream = new HttpTestConn($srv->port);
$stream->send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->waitFor("streaming\n", 5);
/* The handler can only be suspended in write(): the cancel finds it waiting. */
$r = http_get($srv->port, '/cancel');
echo $r['status'], ' ', $r['body'], "\n";
$got = $stream->readAll(http_test_timeout(10));
var_dump($stream->eof, str_starts_with($got, "HTTP/1.1 200 OK\r\n"), str_ends_with($got, "0\r\n\r\n"));
$srv->waitFor("writable: false\n", 5);

echo "-- the server serves on\n";
$r = http_get($srv->port, '/cancel');
echo $r['status'], ' ', $r['body'], "\n";

echo "-- shutdown_timeout cancels end() and sendfile()\n";
$end = new HttpTestConn($srv->port);
$end->send("GET /end HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->waitFor("ending\n", 5);
$sendfile = new HttpTestConn($srv->port);
$sendfile->send("GET /file HTTP/1.1\r\nHost: x\r\n\r\n");
$srv->waitFor("sending the file\n", 5);
$srv->signal(15);
/* Neither client reads before the server has exited: they get part of each body, then the close. */
$r = $srv->stop(0, http_test_timeout(10));
foreach ([$end, $sendfile] as $conn) {
    $got = $conn->readAll(http_test_timeout(10));
    var_dump($conn->eof, strlen($got) < (16 << 20));
}
echo "exit: {$r['code']}\n", $r['out'];
unlink($file);
?>
--EXPECT--
-- Coroutine::cancel() of a handler in write()
200 true
bool(true)
bool(true)
bool(false)
-- the server serves on
200 false
-- shutdown_timeout cancels end() and sendfile()
bool(true)
bool(true)
bool(true)
bool(true)
exit: 0
ready
streaming
a later write(): false
canceled: Coroutine was canceled while writing the response; the connection is closed
writable: false
ending
sending the file
canceled: Coroutine was canceled while writing the response; the connection is closed
writable: false
canceled: Coroutine was canceled while writing the response; the connection is closed
writable: false
start() returned
