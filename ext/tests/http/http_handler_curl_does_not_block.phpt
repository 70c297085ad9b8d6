--TEST--
HTTP: handlers that call curl_exec() wait in coroutines; five fetch the same server's /upstream at once
--EXTENSIONS--
rapier
curl
--FILE--
<?php
require __DIR__ . '/server.inc';
/*
 * One process: /front fetches /upstream of this same server with curl.
 * /upstream answers once five are in flight (or after 10 s), with how many
 * it saw. Were curl_exec() to block the process, no /upstream could be
 * answered while a /front waits, and each would report 1.
 */
$srv = http_server_start('function ($req, $res) use (&$in_flight, &$peak) {
    if ($req->path === "/upstream") {
        $peak = max($peak, ++$in_flight);
        for ($i = 0; $i < 10000 && $peak < 5; $i++) {
            usleep(1000);
        }
        $in_flight--;
        $res->end("upstream saw $peak at once");
        return;
    }
    $ch = curl_init("http://127.0.0.1:$GLOBALS[http_test_port]/upstream");
    curl_setopt_array($ch, [CURLOPT_RETURNTRANSFER => true, CURLOPT_TIMEOUT => 20]);
    $body = curl_exec($ch);
    $res->end($body === false ? "curl failed: " . curl_error($ch) : $body);
}', code: '$in_flight = 0; $peak = 0;', ini: ['extension' => 'curl']);
$conns = [];
for ($i = 0; $i < 5; $i++) {
    $conns[$i] = new HttpTestConn($srv->port);
    $conns[$i]->send("GET /front HTTP/1.1\r\nHost: x\r\n\r\n");
}
foreach ($conns as $c) {
    echo $c->response(http_test_timeout(20))['body'] ?? 'no answer', "\n";
}
http_report_stop($srv);
?>
--EXPECT--
upstream saw 5 at once
upstream saw 5 at once
upstream saw 5 at once
upstream saw 5 at once
upstream saw 5 at once
exit: 0
