--TEST--
HTTP: a response header with CR/LF is refused with ValueError in the handler; uncaught, the client gets 500 (no response splitting)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $value = $req->query["v"] ?? "";
    if ($req->path === "/caught") {
        try {
            $res->header("X-Echo", $value);
        } catch (ValueError $e) {
            $res->status(400)->end($e->getMessage());
            return;
        }
        $res->end("accepted");
        return;
    }
    if ($req->path === "/name") {
        $res->header("Bad\r\nName", "v");
    }
    $res->header("X-Echo", $value);
    $res->end("accepted");
}');
foreach (['/caught?v=a%0D%0ASet-Cookie:%20evil=1', '/caught?v=a%0Ab', '/caught?v=a%00b', '/caught?v=tab%09ok',
    '/uncaught?v=a%0D%0A%0D%0A<html>', '/name'] as $p) {
    $c = new HttpTestConn($srv->port);
    $c->send("GET $p HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    $raw = $c->readAll(3);
    echo "$p: ", substr($raw, 0, strpos($raw, "\r\n")), str_contains($raw, 'evil') || str_contains($raw, '<html>') ? ' SPLIT' : '', "\n";
    echo "  ", substr($raw, strpos($raw, "\r\n\r\n") + 4), "\n";
}
$r = $srv->stop();
echo "exit: {$r['code']}\n";
/* Each uncaught exception is logged. */
preg_match_all('~^ValueError: (.*) in /~m', $r['err'], $m);
echo implode("\n", $m[1]), "\n";
?>
--EXPECT--
/caught?v=a%0D%0ASet-Cookie:%20evil=1: HTTP/1.1 400 Bad Request
  Rapier\Http\Response::header(): Argument #2 ($value) must not contain CR, LF, NUL or other control characters
/caught?v=a%0Ab: HTTP/1.1 400 Bad Request
  Rapier\Http\Response::header(): Argument #2 ($value) must not contain CR, LF, NUL or other control characters
/caught?v=a%00b: HTTP/1.1 400 Bad Request
  Rapier\Http\Response::header(): Argument #2 ($value) must not contain CR, LF, NUL or other control characters
/caught?v=tab%09ok: HTTP/1.1 200 OK
  accepted
/uncaught?v=a%0D%0A%0D%0A<html>: HTTP/1.1 500 Internal Server Error
  500 Internal Server Error

/name: HTTP/1.1 500 Internal Server Error
  500 Internal Server Error

exit: 0
Rapier\Http\Response::header(): Argument #2 ($value) must not contain CR, LF, NUL or other control characters
Rapier\Http\Response::header(): Argument #1 ($name) must be a valid header name (letters, digits and !#$%&'*+-.^_`|~)
