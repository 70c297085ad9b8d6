--TEST--
HTTPS: tls_crl_file refuses client certificates their authority revoked, also through an intermediate whose own CRL is in the file; a chain with an authority that has no CRL there, or a CRL past its next update, is refused; misuse is refused
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/tls.inc';
$f = tls_test_files();
$c = tls_test_client_files();
$dir = $f['dir'];
tls_test_make_client_certificate("$dir/bob.pem", "$dir/bob.key", '/CN=bob', $c['ca'], "$dir/ca.key", '0x07');
tls_test_make_client_certificate("$dir/dave.pem", "$dir/dave.key", '/CN=dave', "$dir/intermediate.pem",
    "$dir/intermediate.key", '0x08');
file_put_contents("$dir/dave.pem", file_get_contents("$dir/intermediate.pem"), FILE_APPEND);
$bob = ["$dir/bob.pem", "$dir/bob.key"];
$dave = ["$dir/dave.pem", "$dir/dave.key"];

/* Test CA revokes bob, the intermediate dave; and a list of Test CA's that is out of date. */
tls_test_make_crl("$dir/ca-crl.pem", $c['ca'], "$dir/ca.key", [$bob[0]]);
tls_test_make_crl("$dir/intermediate-crl.pem", "$dir/intermediate.pem", "$dir/intermediate.key", ["$dir/dave.pem"]);
tls_test_make_crl("$dir/ca-crl-old.pem", $c['ca'], "$dir/ca.key", [], '20200102000000Z');
file_put_contents("$dir/crl.pem", file_get_contents("$dir/ca-crl.pem") . file_get_contents("$dir/intermediate-crl.pem"));

tls_test_try_start(tls_test_options(['tls_crl_file' => "$dir/crl.pem"]));
tls_test_try_start(tls_test_options(['tls_client_ca_file' => $c['ca'], 'tls_crl_file' => "$dir/missing.pem"]));
tls_test_try_start(tls_test_options(['tls_client_ca_file' => $c['ca'], 'tls_crl_file' => $c['ca']]));

function client(int $port, ?array $certificate): string
{
    [$rc, $out] = tls_curl($port, '/', $certificate ? tls_curl_client($certificate) : []);
    return $rc === 0 ? trim($out) : 'refused';
}

$handler = 'function ($req, $res) {
    $res->end($req->server()["SSL_CLIENT_VERIFY"] . " " . ($req->server()["SSL_CLIENT_S_DN"] ?? "-") . "\n");
}';
function serve(string $crl): HttpTestServer
{
    global $handler, $c;
    return http_server_start($handler, tls_test_options(['tls_client_ca_file' => $c['ca'], 'tls_verify_client' => 'optional',
        'tls_crl_file' => $crl]));
}

$srv = serve("$dir/crl.pem");
foreach (['no certificate' => null, 'alice' => $c['alice'], 'bob (revoked)' => $bob, 'carol (intermediate)' => $c['carol'],
    'dave (revoked by the intermediate)' => $dave, 'mallory (another authority)' => $c['mallory']] as $who => $certificate) {
    echo "$who: ", client($srv->port, $certificate), "\n";
}
echo 'exit: ', $srv->stop()['code'], "\n";

/* Without the intermediate's CRL its chains cannot be checked: carol is refused, alice is still served. */
$srv = serve("$dir/ca-crl.pem");
echo 'without the intermediate\'s CRL, carol: ', client($srv->port, $c['carol']), "\n";
echo 'and alice: ', client($srv->port, $c['alice']), "\n";
echo 'exit: ', $srv->stop()['code'], "\n";

/* A CRL past its next update: nothing it covers is accepted, as if it were missing. */
file_put_contents("$dir/old.pem", file_get_contents("$dir/ca-crl-old.pem") . file_get_contents("$dir/intermediate-crl.pem"));
$srv = serve("$dir/old.pem");
echo 'out-of-date CRL, alice: ', client($srv->port, $c['alice']), "\n";
echo 'no certificate: ', client($srv->port, null), "\n";
echo 'exit: ', $srv->stop()['code'], "\n";
?>
--EXPECTF--
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_crl_file" needs "tls_client_ca_file": client certificates are verified against the authorities in that file
Rapier\Exception: Cannot serve HTTPS: tls_crl_file DIR/missing.pem: No such file or directory
Rapier\Exception: Cannot serve HTTPS: tls_crl_file DIR/ca.pem: no certificate revocation list: %s
no certificate: NONE -
alice: SUCCESS CN=alice,O=Example
bob (revoked): refused
carol (intermediate): SUCCESS CN=carol
dave (revoked by the intermediate): refused
mallory (another authority): refused
exit: 0
without the intermediate's CRL, carol: refused
and alice: SUCCESS CN=alice,O=Example
exit: 0
out-of-date CRL, alice: refused
no certificate: NONE -
exit: 0
