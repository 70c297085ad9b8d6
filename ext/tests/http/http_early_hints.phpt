--TEST--
HTTP: Response::earlyHints() sends 103 Early Hints before the final response, any number of times, on a keep-alive connection (curl reads them as interim responses); none to an HTTP/1.0 client; false once the client left; names, values and keys checked; refused once the response started; none with the early_hints option off (the default)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    switch ($req->path) {
        case "/page":
            $first = $res->earlyHints(["Link" => ["</app.css>; rel=preload; as=style", "</app.js>; rel=preload; as=script"]]);
            Rapier\Coroutine::sleep(0.02);
            $second = $res->earlyHints(["Link" => "</font.woff2>; rel=preload; as=font; crossorigin", "X-Hint" => "2"]);
            $res->status(201)->header("Link", "</app.css>; rel=preload; as=style");
            $res->end(json_encode([$first, $second, $res->headersSent(), $res->statusCode()]));
            return;
        case "/left":
            for ($i = 0; $i < 1000 && $res->isWritable(); $i++) {
                Rapier\Coroutine::sleep(0.01);
            }
            echo "hints to a client that left: ", var_export($res->earlyHints(["Link" => "</a.css>; rel=preload"]), true), "\n";
            return;
        case "/misuse":
            $out = [];
            $cases = [
                [0 => "</a.css>; rel=preload"],
                ["Bad Name" => "x"],
                ["Link" => "</a.css>\r\nX-Injected: 1"],
                ["Link" => 42],
                ["Link" => ["</a.css>", ["nested"]]],
            ];
            foreach ($cases as $hints) {
                try {
                    $res->earlyHints($hints);
                    $out[] = "accepted";
                } catch (ValueError|TypeError $e) {
                    $out[] = get_class($e) . ": " . $e->getMessage();
                }
            }
            try {
                $res->earlyHints(["Link" => str_repeat("x", 70000)]);
            } catch (Rapier\Exception $e) {
                $out[] = $e->getMessage();
            }
            $res->write(implode("\n", $out));
            try {
                $res->earlyHints(["Link" => "</late.css>; rel=preload"]);
            } catch (Rapier\Exception $e) {
                $res->write("\n" . $e->getMessage());
            }
            $res->end();
            return;
    }
    $res->end("plain");
}', ['early_hints' => true]);
$p = $srv->port;

/* The bytes as they leave: a status line, the fields, a blank line, before anything else. */
$c = new HttpTestConn($p);
$c->send("GET /page HTTP/1.1\r\nHost: x\r\n\r\n");
$some = $c->readSome();
echo "first bytes: ", json_encode(substr($some, 0, strpos($some, "\r\n\r\n") + 4)), "\n";
$c->close();

/* One keep-alive connection, twice: the interim answers and the final one each end where their framing says. */
$c = new HttpTestConn($p);
for ($round = 1; $round <= 2; $round++) {
    $c->send("GET /page HTTP/1.1\r\nHost: x\r\n\r\n");
    do {
        $r = $c->response();
        echo "round $round: ", $r === null ? 'none' : $r['status'] . ' ' . $r['reason'] . ' ' . json_encode($r['headers']['link'] ?? [])
            . ' ' . ($r['status'] >= 200 ? $r['body'] : json_encode($r['headers']['x-hint'] ?? [])), "\n";
    } while ($r !== null && $r['status'] < 200);
}
$c->close();

/* HTTP/1.0 has no interim responses: its client would take the 103 for the answer. */
$r = http_request($p, "GET /page HTTP/1.0\r\n\r\n");
echo "HTTP/1.0: {$r['status']} {$r['body']}\n";

/* curl: every status line it saw, in order, and the body. */
[$rc, $out] = http_curl(['-D', '-', "http://127.0.0.1:$p/page"]);
preg_match_all('~^HTTP/1\.1 (\d+)~m', $out, $m);
echo "curl: $rc ", implode(' ', $m[1]), ' ', substr($out, strrpos($out, "\r\n\r\n") + 4), "\n";

/* A client that left before the handler's hints. */
$c = new HttpTestConn($p);
$c->send("GET /left HTTP/1.1\r\nHost: x\r\n\r\n");
$c->close();

echo http_get($p, '/misuse')['body'], "\n";
$srv->waitFor('client that left: ', 3);
echo trim(strstr($srv->output(), 'hints to')), "\n";
http_report_stop($srv);

/* early_hints off, by default (behind nginx before 1.29, which takes a 103 for the response): nothing before the answer. */
$srv = http_server_start('function ($req, $res) {
    $res->end(json_encode($res->earlyHints(["Link" => "</app.css>; rel=preload"])));
}');
$c = new HttpTestConn($srv->port);
$c->send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
$all = $c->readAll();
echo "early_hints off: ", substr($all, 0, 15), ' ', substr($all, strpos($all, "\r\n\r\n") + 4), "\n";
http_report_stop($srv);
?>
--EXPECT--
first bytes: "HTTP\/1.1 103 Early Hints\r\nLink: <\/app.css>; rel=preload; as=style\r\nLink: <\/app.js>; rel=preload; as=script\r\n\r\n"
round 1: 103 Early Hints ["<\/app.css>; rel=preload; as=style","<\/app.js>; rel=preload; as=script"] []
round 1: 103 Early Hints ["<\/font.woff2>; rel=preload; as=font; crossorigin"] ["2"]
round 1: 201 Created ["<\/app.css>; rel=preload; as=style"] [true,true,false,201]
round 2: 103 Early Hints ["<\/app.css>; rel=preload; as=style","<\/app.js>; rel=preload; as=script"] []
round 2: 103 Early Hints ["<\/font.woff2>; rel=preload; as=font; crossorigin"] ["2"]
round 2: 201 Created ["<\/app.css>; rel=preload; as=style"] [true,true,false,201]
HTTP/1.0: 201 [false,false,false,201]
curl: 0 103 103 201 [true,true,false,201]
ValueError: Rapier\Http\Response::earlyHints(): Argument #1 ($headers) must have header names as keys, 0 given (['Link' => ['</app.css>; rel=preload; as=style', ...]])
ValueError: Rapier\Http\Response::earlyHints(): Argument #1 ($headers) must have header names as keys (letters, digits and !#$%&'*+-.^_`|~), "Bad Name" is not one
ValueError: Rapier\Http\Response::earlyHints(): Argument #1 ($headers) must not hold CR, LF, NUL or other control characters (in Link)
TypeError: Rapier\Http\Response::earlyHints(): Argument #1 ($headers) must hold strings or lists of strings as values, int given for Link
TypeError: Rapier\Http\Response::earlyHints(): Argument #1 ($headers) must hold strings or lists of strings as values, array given for Link
Cannot send early hints: they would exceed 65536 bytes
Cannot send early hints: the response headers have already been sent
hints to a client that left: false
exit: 0
early_hints off: HTTP/1.1 200 OK false
exit: 0
