--TEST--
HTTP: real_scheme_header with real_ip_from: a request from a trusted proxy came over the scheme the header says ("https" or "http", any case, the last field of the name; a list only where it lines up with the X-Forwarded-For list that named the client, then the client's entry; anything else: the connection's own), per request on one connection and over HTTP/2, in REQUEST_SCHEME and HTTPS; SSL_PROTOCOL stays the connection's; from another peer the header is ignored; the options are validated
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/tls.inc';
$handler = 'function ($req, $res) {
    $s = $req->server();
    $res->end(sprintf("%s HTTPS=%s SSL_PROTOCOL=%s %s", $s["REQUEST_SCHEME"], $s["HTTPS"] ?? "-",
        isset($s["SSL_PROTOCOL"]) ? "set" : "-", $req->remoteAddress));
}';
$srv = http_server_start($handler, ['real_scheme_header' => 'X-Forwarded-Proto', 'real_ip_from' => '127.0.0.1',
    'http2' => true]);
$cases = [
    'none' => [],
    'https' => ['https'],
    'upper case, spaces' => [' HTTPS '],
    'http' => ['http'],
    'a list' => ['https, http'],
    'not a scheme' => ['wss'],
    'two fields: the last' => ['http', 'https'],
];
$c = new HttpTestConn($srv->port);
foreach ($cases as $name => $values) {
    $fields = implode('', array_map(fn ($v) => "X-Forwarded-Proto: $v\r\n", $values));
    $c->send("GET /" . rawurlencode($name) . " HTTP/1.1\r\nHost: x\r\n$fields\r\n");
    $r = $c->response(5);
    echo str_pad("$name:", 24), $r['body'], "\n";
}
$c->close();
[$rc, $out] = http_curl(['--http2-prior-knowledge', '-H', 'X-Forwarded-Proto: https', "http://127.0.0.1:{$srv->port}/h2"]);
echo str_pad('HTTP/2:', 24), $out, "\n";
/* From 127.0.0.7, a peer not trusted: the header is the client's word alone. */
[$rc, $out] = http_curl(['--interface', '127.0.0.7', '-H', 'X-Forwarded-Proto: https', "http://127.0.0.1:{$srv->port}/"]);
echo str_pad('untrusted peer:', 24), $out, "\n";
$srv->stop();

/* Both headers together; over HTTPS, a proxy that says the client used plain HTTP. */
$srv = http_server_start($handler, tls_test_options(['real_scheme_header' => 'X-Forwarded-Proto',
    'real_ip_header' => 'X-Forwarded-For', 'real_ip_from' => '127.0.0.1']));
[$rc, $out] = tls_curl($srv->port, '/', ['-H', 'X-Forwarded-Proto: http', '-H', 'X-Forwarded-For: 203.0.113.9']);
echo str_pad('HTTPS, said http:', 24), $out, "\n";
[$rc, $out] = tls_curl($srv->port, '/');
echo str_pad('HTTPS, nothing said:', 24), $out, "\n";
$srv->stop();

/* Proxies that append to both lists: the scheme of the hop where the client came in. */
$srv = http_server_start($handler, ['real_scheme_header' => 'X-Forwarded-Proto', 'real_ip_header' => 'X-Forwarded-For',
    'real_ip_from' => ['127.0.0.1', '10.0.0.0/8']]);
$c = new HttpTestConn($srv->port);
foreach ([
    'client, proxy' => ['203.0.113.9, 10.0.0.2', 'https, http'],
    'the other way' => ['203.0.113.9, 10.0.0.2', 'http, https'],
    'lengths differ' => ['203.0.113.9, 10.0.0.2', 'https, http, http'],
    'a claim left of it' => ['198.51.100.1, 203.0.113.9,10.0.0.2', 'http,https , http'],
    'all trusted' => ['10.0.0.3, 10.0.0.2', 'HTTPS, http'],
    'empty leftmost address' => [', 10.0.0.2', 'https, http'],
    'no address list' => [null, 'https, http'],
    'one each' => ['203.0.113.9', ' https '],
] as $name => [$for, $proto]) {
    $fields = ($for === null ? '' : "X-Forwarded-For: $for\r\n") . "X-Forwarded-Proto: $proto\r\n";
    $c->send("GET / HTTP/1.1\r\nHost: x\r\n$fields\r\n");
    echo str_pad("$name:", 24), $c->response(5)['body'], "\n";
}
$c->close();
$srv->stop();

foreach ([
    ['real_scheme_header' => 'X-Forwarded-Proto'],
    ['real_ip_from' => '10.0.0.0/8'],
] as $options) {
    try {
        new Rapier\Http\Server('127.0.0.1', 0, $options);
    } catch (ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
none:                   http HTTPS=- SSL_PROTOCOL=- 127.0.0.1
https:                  https HTTPS=on SSL_PROTOCOL=- 127.0.0.1
upper case, spaces:     https HTTPS=on SSL_PROTOCOL=- 127.0.0.1
http:                   http HTTPS=- SSL_PROTOCOL=- 127.0.0.1
a list:                 http HTTPS=- SSL_PROTOCOL=- 127.0.0.1
not a scheme:           http HTTPS=- SSL_PROTOCOL=- 127.0.0.1
two fields: the last:   https HTTPS=on SSL_PROTOCOL=- 127.0.0.1
HTTP/2:                 https HTTPS=on SSL_PROTOCOL=- 127.0.0.1
untrusted peer:         http HTTPS=- SSL_PROTOCOL=- 127.0.0.7
HTTPS, said http:       http HTTPS=- SSL_PROTOCOL=set 203.0.113.9
HTTPS, nothing said:    https HTTPS=on SSL_PROTOCOL=set 127.0.0.1
client, proxy:          https HTTPS=on SSL_PROTOCOL=- 203.0.113.9
the other way:          http HTTPS=- SSL_PROTOCOL=- 203.0.113.9
lengths differ:         http HTTPS=- SSL_PROTOCOL=- 203.0.113.9
a claim left of it:     https HTTPS=on SSL_PROTOCOL=- 203.0.113.9
all trusted:            https HTTPS=on SSL_PROTOCOL=- 10.0.0.3
empty leftmost address: http HTTPS=- SSL_PROTOCOL=- 10.0.0.2
no address list:        http HTTPS=- SSL_PROTOCOL=- 127.0.0.1
one each:               https HTTPS=on SSL_PROTOCOL=- 203.0.113.9
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "real_scheme_header" needs "real_ip_from": the proxies trusted to name the client's scheme in it
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "real_ip_from" needs "real_ip_header" (the header those proxies name the client in) or "real_scheme_header" (the one they name its scheme in)
