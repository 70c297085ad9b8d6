--TEST--
HTTPS: client certificates (mutual TLS): with tls_client_ca_file a client must present a certificate that chains to it, or the handshake fails (counted); tls_verify_client "optional" also serves clients without one; tls_verify_depth bounds the intermediates; $_SERVER's SSL_CLIENT_* variables describe the verified certificate; misused options are refused
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/tls.inc';
$f = tls_test_files();
$c = tls_test_client_files();
file_put_contents("{$f['dir']}/not-pem.txt", "hello\n");

tls_test_try_start(['tls_client_ca_file' => $c['ca']]);
tls_test_try_start(tls_test_options(['tls_verify_client' => 'optional']));
tls_test_try_start(tls_test_options(['tls_verify_depth' => 2]));
tls_test_try_start(tls_test_options(['tls_client_ca_file' => $c['ca'], 'tls_verify_client' => 'on']));
tls_test_try_start(tls_test_options(['tls_client_ca_file' => $c['ca'], 'tls_verify_depth' => -1]));
tls_test_try_start(tls_test_options(['tls_client_ca_file' => "{$f['dir']}/missing.pem"]));
tls_test_try_start(tls_test_options(['tls_client_ca_file' => "{$f['dir']}/not-pem.txt"]));

const HANDLER = 'function ($req, $res) use ($server) {
    $vars = array_filter($req->server(), fn ($k) => str_starts_with($k, "SSL_CLIENT_"), ARRAY_FILTER_USE_KEY);
    ksort($vars);
    $vars["failures"] = $server->stats()["tls_handshake_failures"];
    $res->end(json_encode($vars));
}';

/* The variables a request saw, with the certificate and its dates checked against the files. */
function describe(int $rc, string $out, ?array $certificate = null): string
{
    if ($rc !== 0) {
        return 'refused';
    }
    $vars = json_decode($out, true);
    if ($certificate !== null) {
        $pem = file_get_contents($certificate[0]);
        $info = openssl_x509_parse($pem);
        $dates = [gmdate('M j H:i:s Y', $info['validFrom_time_t']), gmdate('M j H:i:s Y', $info['validTo_time_t'])];
        $vars['SSL_CLIENT_CERT'] = $vars['SSL_CLIENT_CERT'] === $pem ? '(the file)' : $vars['SSL_CLIENT_CERT'];
        /* OpenSSL pads the day with a space: "Nov  4". */
        $vars['SSL_CLIENT_V_START'] = preg_replace('/ +/', ' ', $vars['SSL_CLIENT_V_START']) === "$dates[0] GMT"
            ? '(notBefore)' : $vars['SSL_CLIENT_V_START'];
        $vars['SSL_CLIENT_V_END'] = preg_replace('/ +/', ' ', $vars['SSL_CLIENT_V_END']) === "$dates[1] GMT"
            ? '(notAfter)' : $vars['SSL_CLIENT_V_END'];
    }
    return json_encode($vars, JSON_UNESCAPED_SLASHES);
}

echo "-- require (tls_client_ca_file alone), tls_verify_depth 0\n";
$srv = http_server_start(HANDLER, tls_test_options(['tls_client_ca_file' => $c['ca'], 'tls_verify_depth' => 0]));
[$rc, $out] = tls_curl($srv->port, '/');
echo 'no certificate: ', describe($rc, $out), "\n";
[$rc, $out] = tls_curl($srv->port, '/', tls_curl_client($c['alice']));
echo 'alice: ', describe($rc, $out, $c['alice']), "\n";
[$rc, $out] = tls_curl($srv->port, '/', tls_curl_client($c['mallory']));
echo 'another authority: ', describe($rc, $out), "\n";
[$rc, $out] = tls_curl($srv->port, '/', tls_curl_client($c['expired']));
echo 'expired: ', describe($rc, $out), "\n";
[$rc, $out] = tls_curl($srv->port, '/', tls_curl_client($c['carol']));
echo 'carol, through an intermediate authority: ', describe($rc, $out), "\n";
[$rc, $out] = tls_curl($srv->port, '/', [...tls_curl_client($c['alice']), '--tlsv1.2', '--tls-max', '1.2']);
echo 'alice over TLS 1.2: ', describe($rc, $out, $c['alice']), "\n";

/* PHP's own TLS client, two requests on one connection. */
$ctx = stream_context_create(['ssl' => ['cafile' => $f['cert'], 'peer_name' => 'localhost',
    'local_cert' => $c['alice'][0], 'local_pk' => $c['alice'][1]]]);
$s = stream_socket_client("tls://127.0.0.1:{$srv->port}", $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $ctx);
fwrite($s, "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
$raw = stream_get_contents($s);
echo 'PHP streams, keep-alive: ', substr_count($raw, '"SSL_CLIENT_S_DN":"CN=alice,O=Example"'), " of 2\n";
echo 'exit: ', $srv->stop()['code'], "\n";

echo "-- optional\n";
$srv = http_server_start(HANDLER, tls_test_options(['tls_client_ca_file' => $c['ca'], 'tls_verify_client' => 'optional',
    'tls_verify_depth' => 1]));
[$rc, $out] = tls_curl($srv->port, '/');
echo 'no certificate: ', describe($rc, $out), "\n";
[$rc, $out] = tls_curl($srv->port, '/', tls_curl_client($c['alice']));
echo 'alice: ', describe($rc, $out, $c['alice']), "\n";
[$rc, $out] = tls_curl($srv->port, '/', tls_curl_client($c['mallory']));
echo 'another authority: ', describe($rc, $out), "\n";
[$rc, $out] = tls_curl($srv->port, '/', tls_curl_client($c['carol']));
echo 'carol, through an intermediate authority: ', json_encode(array_intersect_key(json_decode($out, true) ?? [],
    ['SSL_CLIENT_S_DN' => 0, 'SSL_CLIENT_I_DN' => 0, 'SSL_CLIENT_VERIFY' => 0])), "\n";
[$rc, $out] = tls_curl($srv->port, '/');
echo 'no certificate again: ', describe($rc, $out), "\n";
echo 'exit: ', $srv->stop()['code'], "\n";

echo "-- no client verification\n";
$srv = http_server_start(HANDLER, tls_test_options());
[$rc, $out] = tls_curl($srv->port, '/', tls_curl_client($c['mallory']));
echo 'a certificate nobody asked for: ', describe($rc, $out), "\n";
echo 'exit: ', $srv->stop()['code'], "\n";
?>
--EXPECT--
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_client_ca_file" needs "tls_cert_file": HTTPS is served only with a certificate
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_verify_client" needs "tls_client_ca_file": client certificates are verified against the authorities in that file
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_verify_depth" needs "tls_client_ca_file": client certificates are verified against the authorities in that file
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_verify_client" must be "require" or "optional"
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_verify_depth" must be an integer between 0 and 100
Rapier\Exception: Cannot serve HTTPS: tls_client_ca_file DIR/missing.pem: No such file or directory
Rapier\Exception: Cannot serve HTTPS: tls_client_ca_file DIR/not-pem.txt: no certificate: no certificate or crl found
-- require (tls_client_ca_file alone), tls_verify_depth 0
no certificate: refused
alice: {"SSL_CLIENT_CERT":"(the file)","SSL_CLIENT_I_DN":"CN=Test CA","SSL_CLIENT_M_SERIAL":"1A2B","SSL_CLIENT_S_DN":"CN=alice,O=Example","SSL_CLIENT_VERIFY":"SUCCESS","SSL_CLIENT_V_END":"(notAfter)","SSL_CLIENT_V_START":"(notBefore)","failures":1}
another authority: refused
expired: refused
carol, through an intermediate authority: refused
alice over TLS 1.2: {"SSL_CLIENT_CERT":"(the file)","SSL_CLIENT_I_DN":"CN=Test CA","SSL_CLIENT_M_SERIAL":"1A2B","SSL_CLIENT_S_DN":"CN=alice,O=Example","SSL_CLIENT_VERIFY":"SUCCESS","SSL_CLIENT_V_END":"(notAfter)","SSL_CLIENT_V_START":"(notBefore)","failures":4}
PHP streams, keep-alive: 2 of 2
exit: 0
-- optional
no certificate: {"SSL_CLIENT_VERIFY":"NONE","failures":0}
alice: {"SSL_CLIENT_CERT":"(the file)","SSL_CLIENT_I_DN":"CN=Test CA","SSL_CLIENT_M_SERIAL":"1A2B","SSL_CLIENT_S_DN":"CN=alice,O=Example","SSL_CLIENT_VERIFY":"SUCCESS","SSL_CLIENT_V_END":"(notAfter)","SSL_CLIENT_V_START":"(notBefore)","failures":0}
another authority: refused
carol, through an intermediate authority: {"SSL_CLIENT_I_DN":"CN=Intermediate CA","SSL_CLIENT_S_DN":"CN=carol","SSL_CLIENT_VERIFY":"SUCCESS"}
no certificate again: {"SSL_CLIENT_VERIFY":"NONE","failures":1}
exit: 0
-- no client verification
a certificate nobody asked for: {"failures":0}
exit: 0
