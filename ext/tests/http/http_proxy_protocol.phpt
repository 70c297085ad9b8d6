--TEST--
HTTP: proxy_protocol: behind HAProxy (send-proxy, send-proxy-v2) the client's address and port come from the PROXY header, for remoteAddress, REMOTE_ADDR, REMOTE_PORT and the access log, over keep-alive and HTTP/2 (h2c) too; a header in pieces, a LOCAL one (the balancer's health check) keeping the connection's address; a connection without a header is closed unanswered and the server goes on
--EXTENSIONS--
rapier
--SKIPIF--
<?php
require __DIR__ . '/haproxy.inc';
if ($why = haproxy_test_skip()) {
    die("skip $why");
}
?>
--FILE--
<?php
require __DIR__ . '/haproxy.inc';
require __DIR__ . '/tls.inc';
$log = tempnam(sys_get_temp_dir(), 'rapier-access');
$srv = http_server_start('function ($req, $res) {
    $server = $req->server();
    $res->end("{$req->remoteAddress} {$server["REMOTE_ADDR"]}:{$server["REMOTE_PORT"]} {$server["SERVER_PROTOCOL"]}\n");
}', ['proxy_protocol' => true, 'http2' => true, 'access_log' => $log]);
$haproxy = new HaproxyTest(['v1' => [$srv->port, 'send-proxy'], 'v2' => [$srv->port, 'send-proxy-v2']]);

/*
 * curl from 127.0.0.7: HAProxy connects to the server from 127.0.0.1. curl
 * says which port it had, which the server must report as the client's.
 */
foreach (['v1', 'v2'] as $name) {
    $url = "http://127.0.0.1:{$haproxy->ports[$name]}/";
    [$rc, $out, $err] = http_curl(['--interface', '127.0.0.7', '-w', 'port %{local_port}\n', $url, $url]);
    if ($rc === 0 && preg_match('/^port (\d+)$/m', $out, $m)) {
        $out = str_replace(":$m[1] ", ":(the client's port) ", preg_replace('/^port \d+\n/m', '', $out));
    }
    echo "$name, two requests on one connection: ", $rc === 0 ? $out : "curl $rc $err\n";
    [$rc, $out, $err] = http_curl(['--interface', '127.0.0.8', '--http2-prior-knowledge', $url]);
    echo "$name, HTTP/2: ", $rc === 0 ? preg_replace('/:\d+ /', ':port ', $out) : "curl $rc $err\n";
}

/* By hand: a version 1 header byte by byte, then the request. */
$c = new HttpTestConn($srv->port);
foreach (str_split("PROXY TCP4 192.0.2.7 198.51.100.1 51234 8080\r\n") as $byte) {
    $c->send($byte);
    usleep(2000);
}
$c->send("GET /pieces HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response(5);
echo "in pieces: {$r['body']}";
$c->close();

/* Version 2 LOCAL, as a balancer's health check sends: the connection's own address stands. */
$c = new HttpTestConn($srv->port);
$c->send("\r\n\r\n\0\r\nQUIT\n\x20\x00\x00\x00GET /local HTTP/1.1\r\nHost: x\r\n\r\n");
$r = $c->response(5);
echo "LOCAL: ", preg_replace('/:\d+ /', ':port ', $r['body']);
$c->close();

/* No header: a client straight to the port, answered nothing. */
$c = new HttpTestConn($srv->port);
$c->send("GET /direct HTTP/1.1\r\nHost: x\r\n\r\n");
$got = $c->readAll(5);
echo "no header: closed ", var_export($c->eof, true), ", answered ", json_encode($got), "\n";
$c->close();
$r = http_curl(['--haproxy-protocol', "http://127.0.0.1:{$srv->port}/after"]);
echo "curl --haproxy-protocol: ", $r[0] === 0 ? $r[1] : "curl {$r[0]} {$r[2]}\n";

http_test_poll(fn () => substr_count((string) file_get_contents($log), "\n") >= 9);
/* Sorted once the times are out of them: two requests a second apart would sort by their times. */
$lines = preg_replace('/ \[[^]]+\] /', ' [time] ', file($log, FILE_IGNORE_NEW_LINES));
sort($lines);
echo implode("\n", $lines), "\n";
$haproxy->stop();
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['err'];
unlink($log);

/* HTTPS passed through by HAProxy: the header comes first, then the TLS handshake. */
$srv = http_server_start('function ($req, $res) {
    $res->end("{$req->remoteAddress} over " . ($req->server()["HTTPS"] ?? "plain") . "\n");
}', tls_test_options(['proxy_protocol' => true]));
$haproxy = new HaproxyTest(['tls' => [$srv->port, 'send-proxy-v2']]);
[$rc, $out, $err] = tls_curl($haproxy->ports['tls'], '/', ['--interface', '127.0.0.9']);
echo "HTTPS: ", $rc === 0 ? $out : "curl $rc $err\n";
$haproxy->stop();
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['err'];
?>
--EXPECTF--
v1, two requests on one connection: 127.0.0.7 127.0.0.7:(the client's port) HTTP/1.1
127.0.0.7 127.0.0.7:(the client's port) HTTP/1.1
v1, HTTP/2: 127.0.0.8 127.0.0.8:port HTTP/2.0
v2, two requests on one connection: 127.0.0.7 127.0.0.7:(the client's port) HTTP/1.1
127.0.0.7 127.0.0.7:(the client's port) HTTP/1.1
v2, HTTP/2: 127.0.0.8 127.0.0.8:port HTTP/2.0
in pieces: 192.0.2.7 192.0.2.7:51234 HTTP/1.1
LOCAL: 127.0.0.1 127.0.0.1:port HTTP/1.1
no header: closed true, answered ""
curl --haproxy-protocol: 127.0.0.1 127.0.0.1:%d HTTP/1.1
127.0.0.1 - - [time] "GET /after HTTP/1.1" 200 %d
127.0.0.1 - - [time] "GET /local HTTP/1.1" 200 %d
127.0.0.7 - - [time] "GET / HTTP/1.1" 200 %d
127.0.0.7 - - [time] "GET / HTTP/1.1" 200 %d
127.0.0.7 - - [time] "GET / HTTP/1.1" 200 %d
127.0.0.7 - - [time] "GET / HTTP/1.1" 200 %d
127.0.0.8 - - [time] "GET / HTTP/2.0" 200 %d
127.0.0.8 - - [time] "GET / HTTP/2.0" 200 %d
192.0.2.7 - - [time] "GET /pieces HTTP/1.1" 200 %d
exit: 0
HTTPS: 127.0.0.9 over on
exit: 0
