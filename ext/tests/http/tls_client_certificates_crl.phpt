--TEST--
HTTPS: tls_crl_file refuses client certificates their authority revoked, also through an intermediate whose own CRL is in the file, while the others are served; misuse is refused
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

/* Test CA revokes bob, the intermediate dave. */
tls_test_make_crl("$dir/ca-crl.pem", $c['ca'], "$dir/ca.key", [$bob[0]]);
tls_test_make_crl("$dir/intermediate-crl.pem", "$dir/intermediate.pem", "$dir/intermediate.key", ["$dir/dave.pem"]);
file_put_contents("$dir/crl.pem", file_get_contents("$dir/ca-crl.pem") . file_get_contents("$dir/intermediate-crl.pem"));

tls_test_try_start(tls_test_options(['tls_crl_file' => "$dir/crl.pem"]));
tls_test_try_start(tls_test_options(['tls_client_ca_file' => $c['ca'], 'tls_crl_file' => "$dir/missing.pem"]));
tls_test_try_start(tls_test_options(['tls_client_ca_file' => $c['ca'], 'tls_crl_file' => $c['ca']]));

$srv = http_server_start('function ($req, $res) {
    $res->end($req->server()["SSL_CLIENT_VERIFY"] . " " . ($req->server()["SSL_CLIENT_S_DN"] ?? "-") . "\n");
}', tls_test_options(['tls_client_ca_file' => $c['ca'], 'tls_verify_client' => 'optional',
    'tls_crl_file' => "$dir/crl.pem"]));
foreach (['no certificate' => null, 'alice' => $c['alice'], 'bob (revoked)' => $bob, 'carol (intermediate)' => $c['carol'],
    'dave (revoked by the intermediate)' => $dave, 'mallory (another authority)' => $c['mallory']] as $who => $certificate) {
    echo "$who: ", tls_curl_as($srv->port, $certificate), "\n";
}
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
