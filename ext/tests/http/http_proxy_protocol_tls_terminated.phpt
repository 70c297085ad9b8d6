--TEST--
HTTP: proxy_protocol: behind HAProxy terminating HTTPS (send-proxy-v2-ssl), the PROXY header's SSL TLV makes the request HTTPS (HTTPS, REQUEST_SCHEME, no SSL_* of its own) over HTTP/1.1 and HTTP/2, a plain frontend's stays plain, and a trusted proxy's real_scheme_header still decides when it names a scheme
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
$srv = http_server_start('function ($req, $res) {
    $s = $req->server();
    $ssl = array_filter(array_keys($s), fn ($k) => str_starts_with($k, "SSL_"));
    $res->end("{$req->remoteAddress} {$s["SERVER_PROTOCOL"]} {$s["REQUEST_SCHEME"]} HTTPS=" . ($s["HTTPS"] ?? "unset")
        . " SSL_*: " . (implode(",", $ssl) ?: "none") . "\n");
}', ['proxy_protocol' => true, 'http2' => true, 'real_ip_from' => '127.0.0.9', 'real_scheme_header' => 'X-Forwarded-Proto']);
$f = tls_test_files();
$pem = "{$f['dir']}/haproxy.pem";
file_put_contents($pem, file_get_contents($f['cert']) . file_get_contents($f['key']));
$haproxy = new HaproxyTest([
    'tls' => [$srv->port, 'send-proxy-v2-ssl', "ssl crt $pem alpn h2,http/1.1"],
    'plain' => [$srv->port, 'send-proxy-v2-ssl'],
]);
$tls = $haproxy->ports['tls'];
foreach (['HTTP/1.1' => ['--http1.1'], 'HTTP/2' => ['--http2']] as $name => $args) {
    [$rc, $out, $err] = tls_curl($tls, '/', array_merge($args, ['--interface', '127.0.0.8']));
    echo "terminated, $name: ", $rc === 0 ? $out : "curl $rc $err\n";
}
[$rc, $out, $err] = http_curl(['--interface', '127.0.0.8', "http://127.0.0.1:{$haproxy->ports['plain']}/"]);
echo "plain: ", $rc === 0 ? $out : "curl $rc $err\n";
/* From 127.0.0.9, trusted: its header names the scheme, or says nothing and the TLV stands. */
foreach (['X-Forwarded-Proto: http', 'X-Forwarded-Proto: https, http', 'X-Other: 1'] as $header) {
    [$rc, $out, $err] = tls_curl($tls, '/', ['--interface', '127.0.0.9', '-H', $header]);
    echo "trusted, $header: ", $rc === 0 ? $out : "curl $rc $err\n";
}
[$rc, $out, $err] = http_curl(['--interface', '127.0.0.9', '-H', 'X-Forwarded-Proto: https', "http://127.0.0.1:{$haproxy->ports['plain']}/"]);
echo "trusted, plain, X-Forwarded-Proto: https: ", $rc === 0 ? $out : "curl $rc $err\n";
$haproxy->stop();
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['err'];
?>
--EXPECT--
terminated, HTTP/1.1: 127.0.0.8 HTTP/1.1 https HTTPS=on SSL_*: none
terminated, HTTP/2: 127.0.0.8 HTTP/2.0 https HTTPS=on SSL_*: none
plain: 127.0.0.8 HTTP/1.1 http HTTPS=unset SSL_*: none
trusted, X-Forwarded-Proto: http: 127.0.0.9 HTTP/2.0 http HTTPS=unset SSL_*: none
trusted, X-Forwarded-Proto: https, http: 127.0.0.9 HTTP/2.0 https HTTPS=on SSL_*: none
trusted, X-Other: 1: 127.0.0.9 HTTP/2.0 https HTTPS=on SSL_*: none
trusted, plain, X-Forwarded-Proto: https: 127.0.0.9 HTTP/1.1 https HTTPS=on SSL_*: none
exit: 0
