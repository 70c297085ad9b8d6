--TEST--
HTTP: real_ip_header and real_ip_from: a request from a trusted proxy is from the client the header names (from the right, trusted proxies skipped; all trusted: the leftmost; the last field of the name; what is no address: the connection's own), per request on one connection, in remoteAddress, REMOTE_ADDR (REMOTE_PORT 0) and the access log; from another peer the header is ignored; the options are validated
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$log = tempnam(sys_get_temp_dir(), 'rapier-access');
$handler = 'function ($req, $res) {
    $server = $req->server();
    $res->end("{$req->remoteAddress} {$server["REMOTE_ADDR"]}:{$server["REMOTE_PORT"]}");
}';
$srv = http_server_start($handler, ['real_ip_header' => 'X-Forwarded-For', 'access_log' => $log,
    'real_ip_from' => ['127.0.0.1', '10.0.0.0/8', '2001:db8::/32'], 'http2' => true]);

$cases = [
    'none' => [],
    'one' => ['203.0.113.9'],
    'proxies skipped' => ['198.51.100.1, 203.0.113.9 ,10.1.1.1'],
    'all trusted' => ['10.0.0.5,10.0.0.6'],
    'garbage left of the client' => ['unknown, 203.0.113.9'],
    'garbage on the right' => ['203.0.113.9, unknown'],
    'a port' => ['203.0.113.9:8080'],
    'an empty entry' => ['203.0.113.9,'],
    'IPv6' => ['2001:db8::5, 2001:db9::7'],
    'IPv4-mapped' => ['::ffff:203.0.113.10'],
    'two fields: the last' => ['6.6.6.6', '203.0.113.11'],
];
$c = new HttpTestConn($srv->port);
foreach ($cases as $name => $values) {
    $fields = implode('', array_map(fn ($v) => "X-Forwarded-For: $v\r\n", $values));
    $c->send("GET /" . rawurlencode($name) . " HTTP/1.1\r\nHost: x\r\n$fields\r\n");
    $r = $c->response(5);
    echo str_pad("$name:", 30), $r['body'], "\n";
}
$c->close();
[$rc, $out] = http_curl(['--http2-prior-knowledge', '-H', 'X-Forwarded-For: 203.0.113.20', "http://127.0.0.1:{$srv->port}/h2"]);
echo str_pad('HTTP/2:', 30), $out, "\n";
http_test_poll(fn () => substr_count((string) file_get_contents($log), "\n") >= count($cases) + 1);
foreach (file($log, FILE_IGNORE_NEW_LINES) as $line) {
    echo preg_replace('/ \[[^]]+\] /', ' ', $line), "\n";
}
$srv->stop();

/* Its connection from a peer not trusted: the header is the client's word alone. */
$srv = http_server_start($handler, ['real_ip_header' => 'x-real-ip', 'real_ip_from' => '10.0.0.0/8']);
$r = http_get($srv->port, '/', ['X-Real-IP: 203.0.113.9']);
echo "untrusted peer: {$r['body']}\n";
$srv->stop();
$srv = http_server_start($handler, ['real_ip_header' => 'X-Real-IP', 'real_ip_from' => '127.0.0.0/8']);
$r = http_get($srv->port, '/', ['X-Real-IP: 203.0.113.9']);
echo "X-Real-IP: {$r['body']}\n";
$srv->stop();

foreach ([
    ['real_ip_header' => 'X-Forwarded-For'],
    ['real_ip_from' => '10.0.0.0/8'],
    ['real_ip_header' => 'X-Forwarded-For', 'real_ip_from' => '10.0.0.0/33'],
    ['real_ip_header' => 'X-Forwarded-For', 'real_ip_from' => ['10.0.0.0/8', 'localhost']],
    ['real_ip_header' => 'X-Forwarded-For', 'real_ip_from' => []],
    ['real_ip_header' => 'X-Forwarded-For', 'real_ip_from' => [10]],
] as $options) {
    try {
        new Rapier\Http\Server('127.0.0.1', 0, $options);
        echo "accepted\n";
    } catch (ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
unlink($log);
?>
--EXPECTF--
none:                         127.0.0.1 127.0.0.1:%d
one:                          203.0.113.9 203.0.113.9:0
proxies skipped:              203.0.113.9 203.0.113.9:0
all trusted:                  10.0.0.5 10.0.0.5:0
garbage left of the client:   203.0.113.9 203.0.113.9:0
garbage on the right:         127.0.0.1 127.0.0.1:%d
a port:                       127.0.0.1 127.0.0.1:%d
an empty entry:               127.0.0.1 127.0.0.1:%d
IPv6:                         2001:db9::7 2001:db9::7:0
IPv4-mapped:                  203.0.113.10 203.0.113.10:0
two fields: the last:         203.0.113.11 203.0.113.11:0
HTTP/2:                       203.0.113.20 203.0.113.20:0
127.0.0.1 - - "GET /none HTTP/1.1" 200 25
203.0.113.9 - - "GET /one HTTP/1.1" 200 25
203.0.113.9 - - "GET /proxies%20skipped HTTP/1.1" 200 25
10.0.0.5 - - "GET /all%20trusted HTTP/1.1" 200 19
203.0.113.9 - - "GET /garbage%20left%20of%20the%20client HTTP/1.1" 200 25
127.0.0.1 - - "GET /garbage%20on%20the%20right HTTP/1.1" 200 25
127.0.0.1 - - "GET /a%20port HTTP/1.1" 200 25
127.0.0.1 - - "GET /an%20empty%20entry HTTP/1.1" 200 25
2001:db9::7 - - "GET /IPv6 HTTP/1.1" 200 25
203.0.113.10 - - "GET /IPv4-mapped HTTP/1.1" 200 27
203.0.113.11 - - "GET /two%20fields%3A%20the%20last HTTP/1.1" 200 27
203.0.113.20 - - "GET /h2 HTTP/2.0" 200 27
untrusted peer: 127.0.0.1 127.0.0.1:%d
X-Real-IP: 203.0.113.9 203.0.113.9:0
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "real_ip_header" needs "real_ip_from": the proxies trusted to name the client in it
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "real_ip_from" needs "real_ip_header" (the header those proxies name the client in) or "real_scheme_header" (the one they name its scheme in)
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "real_ip_from" must be an address or a network ("10.0.0.0/8", "2001:db8::/32"), or a list of them: "10.0.0.0/33" is neither
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "real_ip_from" must be an address or a network ("10.0.0.0/8", "2001:db8::/32"), or a list of them: "localhost" is neither
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "real_ip_from" must be an address or a network ("10.0.0.0/8", "2001:db8::/32"), or a non-empty list of them
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "real_ip_from" must list addresses or networks as strings
