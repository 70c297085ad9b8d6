--TEST--
HTTP: coroutines writing one response take turns: every chunk arrives whole, gzip or not, a queued writer can be canceled, and one handed the turn just before the connection closes gets false and lets go
--EXTENSIONS--
rapier
sockets
zlib
--INI--
memory_limit=512M
--FILE--
<?php
require __DIR__ . '/server.inc';
/*
 * Two coroutines stream into one response to a client that reads only
 * later, so each write waits for the socket to drain while the other tries
 * to write. Before, the second wrote (with a blocking poll) into the middle
 * of the first one's chunk, and the client got a broken stream.
 */
$srv = http_server_start('function ($req, $res) {
    $res->header("Content-Type", "text/plain");
    if ($req->path === "/cancel-queued") {
        $first = Rapier\go(function () use ($res) {
            $sent = $res->write(str_repeat("a", 16 << 20));
            echo "first: write() returned ", var_export($sent, true), "\n";
        });
        $second = Rapier\go(function () use ($res) {
            try {
                $res->write("b");
                echo "second: written\n";
            } catch (Rapier\CanceledException $e) {
                echo "second: ", $e->getMessage(), "\n";
            }
        });
        Rapier\Coroutine::sleep(0.2);
        var_dump(Rapier\Coroutine::cancel($second));
        Rapier\Coroutine::sleep(0.2);
        echo "handler: writable ", var_export($res->isWritable(), true), "\n";
        return;
    }
    if ($req->path === "/ok") {
        $res->end("ok");
        return;
    }
    if ($req->path === "/handed-then-closed") {
        /* Starts once the write below waits for the client, and queues behind it. */
        Rapier\go(function () use ($res) {
            $sent = $res->write("b");
            echo "queued: write() returned ", var_export($sent, true), ", writable ", var_export($res->isWritable(), true), "\n";
        });
        $sent = $res->write(str_repeat("a", 4 << 20));
        echo "first: write() returned ", var_export($sent, true), "\n";
        /* The turn is the queued writer\'s now, but it has not run: this closes the connection first. */
        throw new DomainException("handler fails after part of its body");
    }
    $wg = new Rapier\WaitGroup();
    foreach (["a", "b"] as $letter) {
        $wg->add();
        Rapier\go(function () use ($res, $letter, $wg) {
            for ($i = 0; $i < 8; $i++) {
                /* 8 MiB in all, more than the socket buffers hold unread. */
                if (!$res->write("$letter$i " . str_repeat($letter, 512 << 10) . "\n")) {
                    echo "$letter$i: write() returned false\n";
                }
            }
            $wg->done();
        });
    }
    $wg->wait();
    $res->end();
}');

/* The chunks of a chunked body, or a string saying where the framing broke. */
function dechunk(string $body): array|string
{
    $chunks = [];
    for ($at = 0;;) {
        $eol = strpos($body, "\r\n", $at);
        $size = $eol === false ? '' : substr($body, $at, $eol - $at);
        if ($size === '' || strspn($size, '0123456789abcdefABCDEF') !== strlen($size)) {
            return "bad chunk size line at byte $at";
        }
        if (hexdec($size) === 0) {
            return substr($body, $eol) === "\r\n\r\n" ? $chunks : "bytes after the last chunk";
        }
        $chunks[] = substr($body, $eol + 2, hexdec($size));
        $at = $eol + 2 + hexdec($size);
        if (substr($body, $at, 2) !== "\r\n") {
            return "chunk data not followed by CRLF at byte $at";
        }
        $at += 2;
    }
}

/* Whether the lines are whole writes, each coroutine's in its order. */
function writes_intact(string $text): string
{
    $next = ['a' => 0, 'b' => 0];
    foreach (explode("\n", rtrim($text, "\n")) as $n => $line) {
        $whole = strlen($line) === 3 + (512 << 10) && strspn($line, $line[0], 3) === 512 << 10;
        if (!$whole || preg_match('/^([ab])([0-7]) /', $line, $m) !== 1 || (int) $m[2] !== $next[$m[1]]++) {
            return "line $n is not the next whole write";
        }
    }
    return $next === ['a' => 8, 'b' => 8] ? 'all 16 writes whole and in order' : 'writes missing';
}

/*
 * A request from a client with a small receive buffer that starts reading
 * only after a while, so that the server's writes wait; everything it got
 * until the server closed.
 */
function slow_client(int $port, string $request): string
{
    $sock = socket_create(AF_INET, SOCK_STREAM, SOL_TCP);
    socket_set_option($sock, SOL_SOCKET, SO_RCVBUF, 16384);
    socket_connect($sock, '127.0.0.1', $port);
    socket_write($sock, $request);
    usleep(300000);
    $got = '';
    socket_set_option($sock, SOL_SOCKET, SO_RCVTIMEO, ['sec' => (int) http_test_timeout(20), 'usec' => 0]);
    while (($n = socket_recv($sock, $buf, 1 << 20, 0)) > 0) {
        $got .= $buf;
    }
    socket_close($sock);
    return $got;
}

foreach (['identity' => '', 'gzip' => "Accept-Encoding: gzip\r\n"] as $coding => $header) {
    $raw = slow_client($srv->port, "GET /two HTTP/1.1\r\nHost: x\r\nConnection: close\r\n$header\r\n");
    [$head, $body] = explode("\r\n\r\n", $raw, 2) + [1 => ''];
    $chunks = dechunk($body);
    if (is_string($chunks)) {
        echo "$coding: $chunks\n";
        continue;
    }
    $text = implode('', $chunks);
    if ($coding === 'gzip') {
        var_dump(str_contains($head, "Content-Encoding: gzip"));
        $text = gzdecode($text);
    } else {
        /* Unencoded, each write() is one chunk. */
        var_dump(count($chunks));
    }
    echo "$coding: ", writes_intact($text), "\n";
}

$got = slow_client($srv->port, "GET /cancel-queued HTTP/1.1\r\nHost: x\r\n\r\n");
var_dump(str_starts_with($got, "HTTP/1.1 200 OK\r\n"), strlen($got) < (16 << 20));
/* A writer handed the turn just before the connection closed lets go of it and gets false. */
$got = slow_client($srv->port, "GET /handed-then-closed HTTP/1.1\r\nHost: x\r\n\r\n");
[$head, $body] = explode("\r\n\r\n", $got, 2) + [1 => ''];
echo "handed-then-closed: ", strlen($body) >= 4 << 20 && !str_contains($body, "b") ? "the first write only" : "unexpected body", "\n";
echo "next request: ", file_get_contents("http://127.0.0.1:{$srv->port}/ok"), "\n";
$r = $srv->stop();
echo $r['out'];
?>
--EXPECT--
int(16)
identity: all 16 writes whole and in order
bool(true)
gzip: all 16 writes whole and in order
bool(true)
bool(true)
handed-then-closed: the first write only
next request: ok
ready
bool(true)
second: Coroutine was canceled while writing the response; the connection is closed
first: write() returned false
handler: writable false
first: write() returned true
queued: write() returned false, writable false
start() returned
