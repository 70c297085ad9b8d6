--TEST--
HTTP: proxy_protocol: the PROXY header's TLVs from HAProxy (ALPN, authority, unique id, the client's TLS and certificate, checked by CRC32C) become PROXY_PROTOCOL_TLV_* server variables, over HTTP/1.1 and HTTP/2
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
    $tlvs = [];
    foreach ($s as $k => $v) {
        if (str_starts_with($k, "PROXY_PROTOCOL_")) {
            $tlvs[] = substr($k, 15) . "=" . var_export($v, true);
        }
    }
    sort($tlvs);
    $res->end("{$s["SERVER_PROTOCOL"]} {$s["REQUEST_SCHEME"]}: " . (implode(" ", $tlvs) ?: "none") . "\n");
}', ['proxy_protocol' => true, 'http2' => true]);
$f = tls_test_files();
$clients = tls_test_client_files();
$pem = "{$f['dir']}/haproxy.pem";
file_put_contents($pem, file_get_contents($f['cert']) . file_get_contents($f['key']));
$everything = 'send-proxy-v2 proxy-v2-options ssl,cert-cn,ssl-cipher,cert-sig,cert-key,authority,unique-id,crc32c';
$haproxy = new HaproxyTest([
    // Client certificates asked for, and let through unverified, so that the TLV tells the verification's result.
    'tls' => [$srv->port, $everything, "ssl crt $pem alpn h2,http/1.1 verify optional ca-file {$clients['ca']} ca-ignore-err all crt-ignore-err all",
        'unique-id-format conn-%fp'],
    'plain' => [$srv->port, $everything, '', 'unique-id-format plain-%fp'],
    'bare' => [$srv->port, 'send-proxy-v2'],
]);
$ports = $haproxy->ports;
$show = fn (string $out) => str_replace([(string) $ports['tls'], (string) $ports['plain']], ['TLS_PORT', 'PLAIN_PORT'], $out);
foreach ([
    'HTTP/2, alice' => ['--http2', ...tls_curl_client($clients['alice'])],
    'HTTP/1.1, no certificate' => ['--http1.1'],
    'HTTP/1.1, mallory (another CA)' => ['--http1.1', ...tls_curl_client($clients['mallory'])],
] as $name => $args) {
    [$rc, $out, $err] = tls_curl($ports['tls'], '/', $args);
    echo "$name: ", $rc === 0 ? $show($out) : "curl $rc $err\n";
}
foreach (['plain' => $ports['plain'], 'bare' => $ports['bare']] as $name => $port) {
    [$rc, $out, $err] = http_curl(["http://127.0.0.1:$port/"]);
    echo "$name: ", $rc === 0 ? $show($out) : "curl $rc $err\n";
}
$haproxy->stop();
$r = $srv->stop();
echo "exit: {$r['code']}\n", $r['err'];
?>
--EXPECT--
HTTP/2, alice: HTTP/2.0 https: SSL_CLIENT_VERIFY='SUCCESS' TLV_ALPN='h2' TLV_AUTHORITY='localhost' TLV_SSL_CIPHER='TLS_AES_256_GCM_SHA384' TLV_SSL_CN='alice' TLV_SSL_KEY_ALG='EC256' TLV_SSL_SIG_ALG='ecdsa-with-SHA256' TLV_SSL_VERIFY=0 TLV_SSL_VERSION='TLSv1.3' TLV_UNIQUE_ID='conn-TLS_PORT'
HTTP/1.1, no certificate: HTTP/1.1 https: SSL_CLIENT_VERIFY='NONE' TLV_ALPN='http/1.1' TLV_AUTHORITY='localhost' TLV_SSL_CIPHER='TLS_AES_256_GCM_SHA384' TLV_SSL_KEY_ALG='EC256' TLV_SSL_SIG_ALG='ecdsa-with-SHA256' TLV_SSL_VERIFY=0 TLV_SSL_VERSION='TLSv1.3' TLV_UNIQUE_ID='conn-TLS_PORT'
HTTP/1.1, mallory (another CA): HTTP/1.1 https: SSL_CLIENT_VERIFY='FAILED' TLV_ALPN='http/1.1' TLV_AUTHORITY='localhost' TLV_SSL_CIPHER='TLS_AES_256_GCM_SHA384' TLV_SSL_CN='mallory' TLV_SSL_KEY_ALG='EC256' TLV_SSL_SIG_ALG='ecdsa-with-SHA256' TLV_SSL_VERIFY=21 TLV_SSL_VERSION='TLSv1.3' TLV_UNIQUE_ID='conn-TLS_PORT'
plain: HTTP/1.1 http: TLV_UNIQUE_ID='plain-PLAIN_PORT'
bare: HTTP/1.1 http: none
exit: 0