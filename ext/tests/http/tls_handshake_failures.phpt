--TEST--
HTTPS: what the certificate options refuse and how; clients that fail the handshake (bytes that are not TLS, a ClientHello cut short and left hanging, a client gone mid-handshake, a protocol below tls_min_version) are closed without an answer, within read_timeout, and the server serves on; a session resumes on any of two workers (shared ticket keys)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/tls.inc';
$f = tls_test_files();
file_put_contents("{$f['dir']}/not-pem.txt", "hello\n");

tls_test_try_start(['tls_cert_file' => "{$f['dir']}/missing.pem"]);
tls_test_try_start(['tls_cert_file' => "{$f['dir']}/not-pem.txt"]);
tls_test_try_start(['tls_cert_file' => $f['cert']]);
tls_test_try_start(['tls_cert_file' => $f['cert'], 'tls_key_file' => $f['other_key']]);
tls_test_try_start(['tls_cert_file' => $f['cert'], 'tls_key_file' => $f['key'], 'tls_ciphers' => 'NO-SUCH-CIPHER']);
tls_test_try_start(['tls_key_file' => $f['key']]);
tls_test_try_start(['tls_cert_file' => $f['cert'], 'tls_min_version' => '1.1']);

$srv = http_server_start('function ($req, $res) { $res->end("served " . $req->server()["SSL_PROTOCOL"]); }',
    tls_test_options(['tls_min_version' => '1.3', 'read_timeout' => 0.5, 'workers' => 2]));

/* Not TLS at all (nor HTTP): closed, nothing said. */
$c = new HttpTestConn($srv->port);
$c->send("\x00\x01\x02\x03" . str_repeat("\xff", 60));
echo 'garbage: ', json_encode($c->readAll()), ' closed: ', var_export($c->eof, true), "\n";

/* The first bytes of a ClientHello, then nothing: read_timeout ends it, with no 408 in the clear. */
$c = new HttpTestConn($srv->port);
$c->send("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03");
$t = microtime(true);
$out = $c->readAll(5);
echo 'stalled handshake: ', json_encode($out), ' closed: ', var_export($c->eof, true),
    ', within read_timeout: ', var_export(microtime(true) - $t < http_test_timeout(3), true), "\n";

/* Connected and silent. */
$c = new HttpTestConn($srv->port);
echo 'silent: ', json_encode($c->readAll(5)), ' closed: ', var_export($c->eof, true), "\n";

/* Gone mid-handshake. */
$c = new HttpTestConn($srv->port);
$c->send("\x16\x03\x01\x02\x00\x01");
$c->close();

/* TLS 1.2 is below tls_min_version: the handshake fails (curl's 35), 1.3 is served. */
[$rc, $out] = tls_curl($srv->port, '/', ['--tlsv1.2', '--tls-max', '1.2']);
echo "TLS 1.2 client: curl exit $rc\n";
[$rc, $out] = tls_curl($srv->port, '/');
echo "TLS 1.3 client: $rc $out\n";

/*
 * Resumption: a ticket from one connection is accepted on the next ones,
 * whichever of the two workers SO_REUSEPORT hands them to.
 */
$sess = "{$f['dir']}/session";
$connect = ['openssl', 's_client', '-connect', "127.0.0.1:{$srv->port}", '-servername', 'localhost',
    '-CAfile', $f['cert'], '-verify_return_error', '-ign_eof'];
tls_test_run([...$connect, '-sess_out', $sess], "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
$reused = 0;
for ($i = 0; $i < 10; $i++) {
    $out = tls_test_run([...$connect, '-sess_in', $sess], "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    $reused += str_contains($out, 'Reused, TLSv1.3') && str_contains($out, 'served TLSv1.3') ? 1 : 0;
}
/* Without shared keys, about half would fall back to a full handshake. */
echo "resumed: $reused of 10\n";
echo 'exit: ', $srv->stop()['code'], "\n";
?>
--EXPECTF--
Rapier\Exception: Cannot serve HTTPS: tls_cert_file DIR/missing.pem: No such file or directory
Rapier\Exception: Cannot serve HTTPS: tls_cert_file DIR/not-pem.txt: no certificate: no start line
Rapier\Exception: Cannot serve HTTPS: tls_cert_file DIR/cert.pem holds no private key: name the key's file in tls_key_file
Rapier\Exception: Cannot serve HTTPS: tls_key_file DIR/other.pem: the key does not belong to the certificate
Rapier\Exception: Cannot serve HTTPS: tls_ciphers "NO-SUCH-CIPHER": no cipher OpenSSL knows in this list
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_key_file" needs "tls_cert_file": HTTPS is served only with a certificate
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_min_version" must be "1.2" or "1.3"
garbage: "" closed: true
stalled handshake: "" closed: true, within read_timeout: true
silent: "" closed: true
TLS 1.2 client: curl exit 35
TLS 1.3 client: 0 served TLSv1.3
resumed: 10 of 10
exit: 0
