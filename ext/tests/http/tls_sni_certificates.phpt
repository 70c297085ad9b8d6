--TEST--
HTTPS: tls_certificates adds certificates chosen by the name a client asks for (SNI), wildcards included; cert_file's certificate goes to clients asking for a name it holds, for no name or for a name no certificate holds; each is verified by curl for its own name, and client certificates are verified behind each; bad entries are refused, naming the entry
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/tls.inc';
$f = tls_test_files();
$dir = $f['dir'];
tls_test_make_certificate("$dir/shop.pem", "$dir/shop.key", 'shop.localhost', 'DNS:shop.localhost,DNS:www.shop.localhost');
tls_test_make_certificate("$dir/wild.pem", "$dir/wild.key", 'wildcard', 'DNS:*.apps.localhost');
/* A second certificate for the default's own name: never chosen, the default holds the name. */
tls_test_make_certificate("$dir/shadow.pem", "$dir/shadow.key", 'shadow', 'DNS:localhost');
file_put_contents("$dir/shop-both.pem", file_get_contents("$dir/shop.pem") . file_get_contents("$dir/shop.key"));

tls_test_try_start(['tls_certificates' => [['cert_file' => "$dir/shop.pem"]]]);
tls_test_try_start(tls_test_options(['tls_certificates' => []]));
tls_test_try_start(tls_test_options(['tls_certificates' => ['shop' => ['cert_file' => "$dir/shop.pem"]]]));
tls_test_try_start(tls_test_options(['tls_certificates' => ["$dir/shop.pem"]]));
tls_test_try_start(tls_test_options(['tls_certificates' => [['cert_file' => "$dir/shop.pem", 'key' => "$dir/shop.key"]]]));
tls_test_try_start(tls_test_options(['tls_certificates' => [['key_file' => "$dir/shop.key"]]]));
tls_test_try_start(tls_test_options(['tls_certificates' => [['cert_file' => "$dir/shop-both.pem"], ['cert_file' => "$dir/missing.pem"]]]));
tls_test_try_start(tls_test_options(['tls_certificates' => [['cert_file' => "$dir/shop.pem"]]]));
tls_test_try_start(tls_test_options(['tls_certificates' => [['cert_file' => "$dir/shop.pem", 'key_file' => "$dir/wild.key"]]]));

$c = tls_test_client_files();
$srv = http_server_start('function ($req, $res) {
    $res->end("served " . $req->header("host") . " to " . ($req->server()["SSL_CLIENT_S_DN"] ?? "anyone"));
}', tls_test_options(['workers' => 1, 'tls_client_ca_file' => $c['ca'], 'tls_verify_client' => 'optional',
    'tls_certificates' => [
        ['cert_file' => "$dir/shadow.pem", 'key_file' => "$dir/shadow.key"],
        ['cert_file' => "$dir/shop-both.pem"],
        ['cert_file' => "$dir/wild.pem", 'key_file' => "$dir/wild.key"],
    ]]));

foreach (['localhost', 'shop.localhost', 'www.shop.localhost', 'api.apps.localhost', 'deep.api.apps.localhost',
    'unknown.localhost', null] as $name) {
    echo $name ?? '(no name)', ': ', tls_test_served_subject($srv->port, $name), "\n";
}

/* curl verifies each certificate against the name it asked for; the server verifies alice's and mallory's. */
foreach (['shop.localhost' => 'shop.pem', 'www.shop.localhost' => 'shop.pem', 'api.apps.localhost' => 'wild.pem',
    'localhost' => 'cert.pem'] as $name => $ca) {
    $curl = ['--cacert', "$dir/$ca", '--resolve', "$name:{$srv->port}:127.0.0.1", "https://$name:{$srv->port}/"];
    [$rc, $out] = http_curl($curl);
    [$alice_rc, $alice_out] = http_curl([...tls_curl_client($c['alice']), ...$curl]);
    [$mallory_rc] = http_curl([...tls_curl_client($c['mallory']), ...$curl]);
    echo "curl $name: $rc $out; $alice_rc $alice_out; mallory refused: ", var_export($mallory_rc !== 0, true), "\n";
}
echo 'exit: ', $srv->stop()['code'], "\n";
?>
--EXPECTF--
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_certificates" needs "tls_cert_file": HTTPS is served only with a certificate
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_certificates" must be a non-empty list of ["cert_file" => ..., "key_file" => ...] arrays
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_certificates" must be a non-empty list of ["cert_file" => ..., "key_file" => ...] arrays
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_certificates" entry 0 must be an array with "cert_file" (and "key_file" when the key is in a file of its own)
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_certificates" entry 0 has an unknown key key: only "cert_file" and "key_file"
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "tls_certificates" entry 0 needs "cert_file", a non-empty string
Rapier\Exception: Cannot serve HTTPS: tls_certificates[1] cert_file DIR/missing.pem: No such file or directory
Rapier\Exception: Cannot serve HTTPS: tls_certificates[0] cert_file DIR/shop.pem holds no private key: name the key's file in tls_certificates[0] key_file
Rapier\Exception: Cannot serve HTTPS: tls_certificates[0] key_file DIR/wild.key: the key does not belong to the certificate
localhost: CN = localhost
shop.localhost: CN = shop.localhost
www.shop.localhost: CN = shop.localhost
api.apps.localhost: CN = wildcard
deep.api.apps.localhost: CN = localhost
unknown.localhost: CN = localhost
(no name): CN = localhost
curl shop.localhost: 0 served shop.localhost:%d to anyone; 0 served shop.localhost:%d to CN=alice,O=Example; mallory refused: true
curl www.shop.localhost: 0 served www.shop.localhost:%d to anyone; 0 served www.shop.localhost:%d to CN=alice,O=Example; mallory refused: true
curl api.apps.localhost: 0 served api.apps.localhost:%d to anyone; 0 served api.apps.localhost:%d to CN=alice,O=Example; mallory refused: true
curl localhost: 0 served localhost:%d to anyone; 0 served localhost:%d to CN=alice,O=Example; mallory refused: true
exit: 0
