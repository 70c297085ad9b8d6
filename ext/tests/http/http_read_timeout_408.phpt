--TEST--
HTTP: a request that does not arrive whole within read_timeout (slowloris) gets 408 and is closed; others are served meanwhile
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end("ok"); }', ['read_timeout' => 0.5]);
$slow = new HttpTestConn($srv->port);
$t0 = microtime(true);
$slow->send("GET / HTTP/1.1\r\nHo");
/* Trickling bytes does not extend the deadline. */
$slow->send("s");
/* A well-formed request on another connection is answered right away. */
echo "other: ", http_get($srv->port, '/')['body'], "\n";
$slow->send("t");
$r = $slow->response(5);
$elapsed = microtime(true) - $t0;
echo "slow: {$r['status']} {$r['reason']}\n";
var_dump($slow->closedWithin(3));
var_dump($elapsed > 0.3 && $elapsed < http_test_timeout(3));
http_report_stop($srv);
?>
--EXPECT--
other: ok
slow: 408 Request Timeout
bool(true)
bool(true)
exit: 0
