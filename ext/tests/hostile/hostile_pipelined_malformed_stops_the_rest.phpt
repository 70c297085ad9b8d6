--TEST--
Hostile: in a pipelined stream the requests before a malformed one are answered in order, then 400 and a close; nothing after it is handled
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$srv = hostile_server();
$ctl = new HostileControl($srv->port);
$good = fn(int $i) => "POST /attack/$i HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab";
$malformed = [
    'bare LF' => "GET /attack/bad HTTP/1.1\nHost: x\n\n",
    'CL with TE' => "POST /attack/bad HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    'too large' => "POST /attack/bad HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n",
];
foreach ($malformed as $what => $bad) {
    $c = new HttpTestConn($srv->port);
    $c->send($good(1) . $good(2) . $bad . $good(3) . $good(4));
    $all = $c->readAll(3);
    preg_match_all('~HTTP/1\.1 (\d{3}) ~', $all, $m);
    echo "$what: ", implode(',', $m[1]), $c->eof ? ', closed' : ', still open', "\n";
    $ctl->check($what);
}
echo $ctl->report(), "\n";
echo "reached the handler: ", json_encode(hostile_handled($srv)), "\n";
http_report_stop($srv);
?>
--EXPECT--
bare LF: 200,200,400, closed
CL with TE: 200,200,400, closed
too large: 200,200,413, closed
control: all answered
reached the handler: ["handled POST \/attack\/1","handled POST \/attack\/2","handled POST \/attack\/1","handled POST \/attack\/2","handled POST \/attack\/1","handled POST \/attack\/2"]
exit: 0
