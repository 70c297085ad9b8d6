--TEST--
HTTPS: a resumed session keeps its client certificate (SSL_CLIENT_* as on the full handshake); after a reload that changes tls_client_ca_file, a session verified under the old authorities is not resumed but verified again, and refused
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/tls.inc';
require __DIR__ . '/workers.inc';
$f = tls_test_files();
$c = tls_test_client_files();
$dir = $f['dir'];
copy($c['ca'], "$dir/live-ca.pem");

$srv = new WorkersTestServer('function ($req, $res) {
    $res->end("client " . ($req->server()["SSL_CLIENT_S_DN"] ?? "none") . "\n");
}', tls_test_options(['workers' => 1, 'tls_client_ca_file' => "$dir/live-ca.pem"]));

/* One request through openssl s_client: whether the session was resumed, and what the handler saw, or "refused". */
function request(int $port, array $args): string
{
    [$how, $out] = tls_test_s_client_get($port, $args);
    return $how . ', ' . (preg_match('/^client (.*)$/m', $out, $m) ? $m[1] : 'refused');
}

$sess = "$dir/alice.session";
foreach (['1.3' => '-tls1_3', '1.2' => '-tls1_2'] as $version => $flag) {
    echo "TLS $version alice with her certificate: ",
        request($srv->port, [$flag, '-cert', $c['alice'][0], '-key', $c['alice'][1], '-sess_out', $sess]), "\n";
    echo "TLS $version resumed without it: ", request($srv->port, [$flag, '-sess_in', $sess]), "\n";
    echo "TLS $version no certificate, no session: ", request($srv->port, [$flag]), "\n";
}

/* Trust moves to the other authority; the old session (TLS 1.2's, kept last) must not get past it. */
copy($c['other_ca'], "$dir/live-ca.pem");
$srv->reload(1);
echo 'after the reload, alice\'s session: ', request($srv->port, ['-tls1_2', '-sess_in', $sess]), "\n";
echo 'alice with her certificate: ', request($srv->port, ['-cert', $c['alice'][0], '-key', $c['alice'][1]]), "\n";
echo 'mallory: ', request($srv->port, ['-cert', $c['mallory'][0], '-key', $c['mallory'][1]]), "\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
TLS 1.3 alice with her certificate: full handshake, CN=alice,O=Example
TLS 1.3 resumed without it: resumed, CN=alice,O=Example
TLS 1.3 no certificate, no session: full handshake, refused
TLS 1.2 alice with her certificate: full handshake, CN=alice,O=Example
TLS 1.2 resumed without it: resumed, CN=alice,O=Example
TLS 1.2 no certificate, no session: full handshake, refused
after the reload, alice's session: full handshake, refused
alice with her certificate: full handshake, refused
mallory: full handshake, CN=mallory,O=Example
exit: 0
leftover processes: none
