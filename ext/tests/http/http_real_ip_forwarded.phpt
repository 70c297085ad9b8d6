--TEST--
HTTP: real_ip_header and real_scheme_header "Forwarded" (RFC 7239): the client is the for= of the last hop not a trusted proxy's (all trusted: the first; a hop naming no address: the connection's own), with its port in remotePort and REMOTE_PORT, and the scheme that hop's proto=; quoted values, IPv6 in brackets, obfuscated ports, parameters in any case and order, every field of the name as one list, empty elements ignored; per request, over HTTP/2, in the access log; from another peer the header is ignored
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (!is_executable('/usr/bin/curl')) die('skip curl is needed');
--FILE--
<?php
require __DIR__ . '/server.inc';
$log = tempnam(sys_get_temp_dir(), 'rapier-access');
$handler = 'function ($req, $res) {
    $s = $req->server();
    $res->end("{$req->remoteAddress}:{$req->remotePort} {$s["REMOTE_ADDR"]}:{$s["REMOTE_PORT"]} {$s["REQUEST_SCHEME"]}"
        . (isset($s["HTTPS"]) ? " HTTPS={$s["HTTPS"]}" : ""));
}';
$srv = http_server_start($handler, ['real_ip_header' => 'Forwarded', 'real_scheme_header' => 'forwarded',
    'real_ip_from' => ['127.0.0.1', '10.0.0.0/8', '2001:db8::/32'], 'access_log' => $log, 'http2' => true]);

$cases = [
    'none' => [],
    'one' => ['for=203.0.113.9;proto=https'],
    'a port' => ['for="203.0.113.9:4711"'],
    'IPv6 and a port' => ['for="[2001:db9::7]:4711";proto=https'],
    'IPv6, no port' => ['for="[2001:db9::7]"'],
    'proxies skipped' => ['for=198.51.100.1;proto=http, for=203.0.113.9;proto=https, for=10.1.1.1;proto=http'],
    'all trusted' => ['for=10.0.0.5;proto=https, for="[2001:db8::6]"'],
    'unknown on the right' => ['for=203.0.113.9, for=unknown'],
    'obfuscated client' => ['for=_hidden;proto=https, for=10.0.0.6'],
    'unknown left of it' => ['for=unknown, for=203.0.113.9'],
    'obfuscated port' => ['for="203.0.113.9:_a1"'],
    'any case, any order' => ['By=10.0.0.1;Host=example.com;PROTO=HTTPS;For=203.0.113.9'],
    'quoted scheme' => ['for=203.0.113.9;proto="https"'],
    'not a scheme' => ['for=203.0.113.9;proto=wss'],
    'a quoted comma' => ['for="203.0.113.9,10.0.0.1"'],
    'a quoted escape' => ['for="203.0.113.\9"'],
    'IPv6 without brackets' => ['for=2001:db9::7'],
    'port out of range' => ['for="203.0.113.9:65536"'],
    'an empty port' => ['for="203.0.113.9:"'],
    'no for=' => ['proto=https'],
    'empty elements' => [', for=203.0.113.9;proto=https , ,for=10.0.0.1,'],
    'two fields, one list' => ['for=203.0.113.12;proto=https', 'for=10.0.0.9'],
    'the nearer field' => ['for=6.6.6.6', 'for=203.0.113.11'],
    'X-Forwarded-For alone' => [],
];
$c = new HttpTestConn($srv->port);
foreach ($cases as $name => $values) {
    $fields = implode('', array_map(fn ($v) => "Forwarded: $v\r\n", $values));
    if ($name === 'X-Forwarded-For alone') {
        $fields = "X-Forwarded-For: 203.0.113.9\r\nX-Forwarded-Proto: https\r\n";
    }
    $c->send("GET /" . rawurlencode($name) . " HTTP/1.1\r\nHost: x\r\n$fields\r\n");
    $r = $c->response(5);
    echo str_pad("$name:", 24), $r['body'], "\n";
}
$c->close();
[$rc, $out] = http_curl(['--http2-prior-knowledge', '-H', 'Forwarded: for="[2001:db9::8]:1234";proto=https',
    "http://127.0.0.1:{$srv->port}/h2"]);
echo str_pad('HTTP/2:', 24), $out, "\n";
/* From 127.0.0.7, a peer not trusted: the header is the client's word alone. */
[$rc, $out] = http_curl(['--interface', '127.0.0.7', '-H', 'Forwarded: for=203.0.113.9;proto=https',
    "http://127.0.0.1:{$srv->port}/untrusted"]);
echo str_pad('untrusted peer:', 24), preg_replace('/:\d+ /', ':PORT ', $out), "\n";
http_test_poll(fn () => substr_count((string) file_get_contents($log), "\n") >= count($cases) + 2);
$lines = file($log, FILE_IGNORE_NEW_LINES);
echo "access log: ", implode(', ', array_map(fn ($l) => strtok($l, ' '), array_slice($lines, 1, 4))), "\n";
$srv->stop();

/* The scheme from Forwarded, the client from X-Forwarded-For: each header on its own. */
$srv = http_server_start($handler, ['real_ip_header' => 'X-Forwarded-For', 'real_scheme_header' => 'Forwarded',
    'real_ip_from' => ['127.0.0.1', '10.0.0.0/8']]);
$r = http_get($srv->port, '/', ['X-Forwarded-For: 198.51.100.7', 'Forwarded: for=203.0.113.9;proto=https, for=10.0.0.1;proto=http']);
echo "scheme only: {$r['body']}\n";
$srv->stop();
unlink($log);
?>
--EXPECTF--
none:                   127.0.0.1:%d 127.0.0.1:%d http
one:                    203.0.113.9:0 203.0.113.9:0 https HTTPS=on
a port:                 203.0.113.9:4711 203.0.113.9:4711 http
IPv6 and a port:        2001:db9::7:4711 2001:db9::7:4711 https HTTPS=on
IPv6, no port:          2001:db9::7:0 2001:db9::7:0 http
proxies skipped:        203.0.113.9:0 203.0.113.9:0 https HTTPS=on
all trusted:            10.0.0.5:0 10.0.0.5:0 https HTTPS=on
unknown on the right:   127.0.0.1:%d 127.0.0.1:%d http
obfuscated client:      127.0.0.1:%d 127.0.0.1:%d http
unknown left of it:     203.0.113.9:0 203.0.113.9:0 http
obfuscated port:        203.0.113.9:0 203.0.113.9:0 http
any case, any order:    203.0.113.9:0 203.0.113.9:0 https HTTPS=on
quoted scheme:          203.0.113.9:0 203.0.113.9:0 https HTTPS=on
not a scheme:           203.0.113.9:0 203.0.113.9:0 http
a quoted comma:         127.0.0.1:%d 127.0.0.1:%d http
a quoted escape:        127.0.0.1:%d 127.0.0.1:%d http
IPv6 without brackets:  127.0.0.1:%d 127.0.0.1:%d http
port out of range:      127.0.0.1:%d 127.0.0.1:%d http
an empty port:          127.0.0.1:%d 127.0.0.1:%d http
no for=:                127.0.0.1:%d 127.0.0.1:%d http
empty elements:         203.0.113.9:0 203.0.113.9:0 https HTTPS=on
two fields, one list:   203.0.113.12:0 203.0.113.12:0 https HTTPS=on
the nearer field:       203.0.113.11:0 203.0.113.11:0 http
X-Forwarded-For alone:  127.0.0.1:%d 127.0.0.1:%d http
HTTP/2:                 2001:db9::8:1234 2001:db9::8:1234 https HTTPS=on
untrusted peer:         127.0.0.7:PORT 127.0.0.7:PORT http
access log: 203.0.113.9, 203.0.113.9, 2001:db9::7, 2001:db9::7
scheme only: 198.51.100.7:0 198.51.100.7:0 https HTTPS=on
