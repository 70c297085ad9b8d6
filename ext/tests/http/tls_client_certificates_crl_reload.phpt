--TEST--
HTTPS workers: a reload with a new tls_crl_file refuses the newly revoked, whose saved TLS 1.2 session (resumed before) is not resumed after it, while others are served; after reloads, a chain through an authority with no CRL in the file, or under a CRL past its next update, is refused
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip a reload takes long under valgrind; tls_client_certificates_crl checks the lists there, and the ASan stage runs this one'); ?>
--FILE--
<?php
require __DIR__ . '/tls.inc';
require __DIR__ . '/workers.inc';
$f = tls_test_files();
$c = tls_test_client_files();
$dir = $f['dir'];
tls_test_make_client_certificate("$dir/bob.pem", "$dir/bob.key", '/CN=bob', $c['ca'], "$dir/ca.key", '0x07');

/* Test CA revokes bob, then alice too; the intermediate (carol's authority) revokes no one; an out-of-date list. */
tls_test_make_crl("$dir/ca-crl.pem", $c['ca'], "$dir/ca.key", ["$dir/bob.pem"]);
tls_test_make_crl("$dir/ca-crl-2.pem", $c['ca'], "$dir/ca.key", ["$dir/bob.pem", $c['alice'][0]]);
tls_test_make_crl("$dir/intermediate-crl.pem", "$dir/intermediate.pem", "$dir/intermediate.key", []);
tls_test_make_crl("$dir/ca-crl-old.pem", $c['ca'], "$dir/ca.key", [], '20200102000000Z');

file_put_contents("$dir/live-crl.pem", file_get_contents("$dir/ca-crl.pem") . file_get_contents("$dir/intermediate-crl.pem"));
$srv = new WorkersTestServer('function ($req, $res) {
    $res->end($req->server()["SSL_CLIENT_VERIFY"] . " " . ($req->server()["SSL_CLIENT_S_DN"] ?? "-") . "\n");
}', tls_test_options(['workers' => 1, 'tls_client_ca_file' => $c['ca'], 'tls_verify_client' => 'optional',
    'tls_crl_file' => "$dir/live-crl.pem"]));
echo 'alice: ', tls_curl_as($srv->port, $c['alice']), "\n";

/* alice's TLS 1.2 session, resumed before the CRL changes, and not after. */
function resume(int $port, array $args): string
{
    [$how, $out] = tls_test_s_client_get($port, ['-tls1_2', ...$args]);
    return $how . ', ' . (preg_match('/^(SUCCESS .*)$/m', $out, $m) ? $m[1] : 'refused');
}
$session = "$dir/alice.session";
echo 'alice, TLS 1.2: ', resume($srv->port, ['-cert', $c['alice'][0], '-key', $c['alice'][1], '-sess_out', $session]), "\n";
echo 'her session: ', resume($srv->port, ['-sess_in', $session]), "\n";

file_put_contents("$dir/live-crl.pem", file_get_contents("$dir/ca-crl-2.pem") . file_get_contents("$dir/intermediate-crl.pem"));
$srv->reload(1);
echo 'after the reload, her session: ', resume($srv->port, ['-sess_in', $session]), "\n";
echo 'alice: ', tls_curl_as($srv->port, $c['alice']), "\n";
echo 'carol: ', tls_curl_as($srv->port, $c['carol']), "\n";

/* Without the intermediate's CRL its chains cannot be checked: carol is refused, alice is still served. */
copy("$dir/ca-crl.pem", "$dir/live-crl.pem");
$srv->reload(1);
echo 'without the intermediate\'s CRL, carol: ', tls_curl_as($srv->port, $c['carol']), "\n";
echo 'and alice: ', tls_curl_as($srv->port, $c['alice']), "\n";

/* A CRL past its next update: nothing it covers is accepted, as if it were missing. */
file_put_contents("$dir/live-crl.pem", file_get_contents("$dir/ca-crl-old.pem") . file_get_contents("$dir/intermediate-crl.pem"));
$srv->reload(1);
echo 'out-of-date CRL, alice: ', tls_curl_as($srv->port, $c['alice']), "\n";
echo 'no certificate: ', tls_curl_as($srv->port, null), "\n";
workers_report_stop($srv->stop());
?>
--EXPECT--
alice: SUCCESS CN=alice,O=Example
alice, TLS 1.2: full handshake, SUCCESS CN=alice,O=Example
her session: resumed, SUCCESS CN=alice,O=Example
after the reload, her session: full handshake, refused
alice: refused
carol: SUCCESS CN=carol
without the intermediate's CRL, carol: refused
and alice: SUCCESS CN=alice,O=Example
out-of-date CRL, alice: refused
no certificate: NONE -
exit: 0
leftover processes: none
