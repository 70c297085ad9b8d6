--TEST--
HTTP/2: stats() counts the bodies handlers left unread on streams: unread_bodies_dropped for a small rest of known length taken in, unread_bodies_reset for a large or open-ended rest and for a 100-continue never answered; the connection serves on
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/h2.inc';
$srv = http_server_start('function ($req, $res) use ($server) {
    if ($req->path === "/stats") {
        $s = $server->stats();
        $res->end("dropped {$s["unread_bodies_dropped"]}, reset {$s["unread_bodies_reset"]}, closed {$s["unread_bodies_closed"]}");
        return;
    }
    $res->end("denied");
}', ['http2' => true, 'request_buffering' => false]);
$c = new H2TestConn($srv->port);
$id = 1;
$stats = function () use ($c, &$id): string {
    $c->request($id, 'GET', '/stats');
    $body = h2_body($c->stream($id));
    $id += 2;
    return $body;
};
$resets = fn (int $stream) => count(array_filter($c->frames(fn ($f) => $f['stream'] === $stream && $f['type'] === H2_RST_STREAM, 3),
    fn ($f) => $f['stream'] === $stream && $f['type'] === H2_RST_STREAM));

echo "none yet: ", $stats(), "\n";

/* 100 bytes announced, none sent before the answer: taken in when they come. */
$c->request($id, 'PUT', '/deny', [['content-length', '100']], false);
echo "small rest: ", h2_body($c->stream($id)), ", ";
$c->data($id, str_repeat('r', 100));
$id += 2;
echo $stats(), "\n";

/* 2 MB announced, 200 KB sent: reset. */
$c->request($id, 'PUT', '/deny', [['content-length', '2000000']], false);
$c->data($id, str_repeat('d', 200000), false, 1);
echo "large rest: resets ", $resets($id), ", ";
$id += 2;
echo $stats(), "\n";

/* No length: reset. */
$c->request($id, 'POST', '/deny', [], false);
$c->data($id, 'some', false);
echo "open-ended rest: resets ", $resets($id), ", ";
$id += 2;
echo $stats(), "\n";

/* The client waits for a 100 Continue the handler never asked for. */
$c->request($id, 'PUT', '/deny', [['content-length', '5'], ['expect', '100-continue']], false);
echo "100-continue unanswered: resets ", $resets($id), ", ";
$id += 2;
echo $stats(), "\n";

/* A body that came whole with its head, in one write, is no rest. */
$c->send(h2_frame(H2_HEADERS, H2_END_HEADERS, $id, h2_header_block(h2_request_fields('PUT', '/deny', [['content-length', '4']])))
    . h2_frame(H2_DATA, H2_END_STREAM, $id, 'four'));
h2_body($c->stream($id));
$id += 2;
echo "whole body, unread: ", $stats(), "\n";
$c->close();
http_report_stop($srv);
?>
--EXPECT--
none yet: dropped 0, reset 0, closed 0
small rest: denied, dropped 1, reset 0, closed 0
large rest: resets 1, dropped 1, reset 1, closed 0
open-ended rest: resets 1, dropped 1, reset 2, closed 0
100-continue unanswered: resets 1, dropped 1, reset 3, closed 0
whole body, unread: dropped 1, reset 3, closed 0
exit: 0
