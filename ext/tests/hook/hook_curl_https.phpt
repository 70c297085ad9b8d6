--TEST--
Hook: curl_exec() over HTTPS in coroutines, against a TLS server in the same process (handshake and a large body)
--EXTENSIONS--
rapier
curl
openssl
--FILE--
<?php
require __DIR__ . '/tls.inc';
$pem = rapier_test_make_cert('localhost');
Rapier\run(function () use ($pem) {
    $ctx = stream_context_create(['ssl' => ['local_cert' => $pem]]);
    $srv = stream_socket_server('ssl://127.0.0.1:0', $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $ctx);
    $port = (int) parse_url('tcp://' . stream_socket_get_name($srv, false), PHP_URL_PORT);
    Rapier\go(function () use ($srv) {
        for ($i = 0; $i < 3; $i++) {
            $conn = stream_socket_accept($srv, 10);
            Rapier\go(function () use ($conn) {
                $head = '';
                while (!str_contains($head, "\r\n\r\n") && ($chunk = fread($conn, 8192)) !== false && $chunk !== '') {
                    $head .= $chunk;
                }
                // Larger than the socket buffers: many waits on both sides.
                $body = str_repeat(explode(' ', $head)[1], 100000);
                fwrite($conn, "HTTP/1.1 200 OK\r\nContent-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n$body");
                fclose($conn);
            });
        }
    });
    $wg = new Rapier\WaitGroup();
    for ($i = 0; $i < 3; $i++) {
        $wg->add();
        Rapier\go(function () use ($port, $pem, $wg, $i) {
            $ch = curl_init("https://localhost:$port/$i");
            curl_setopt_array($ch, [CURLOPT_RETURNTRANSFER => true, CURLOPT_TIMEOUT => 10, CURLOPT_CAINFO => $pem,
                CURLOPT_RESOLVE => ["localhost:$port:127.0.0.1"]]);
            $body = curl_exec($ch);
            echo "client $i: ", $body === str_repeat("/$i", 100000) ? 'verified, whole body' : curl_error($ch), "\n";
            $wg->done();
        });
    }
    $wg->wait();
});
?>
--EXPECTF--
client %d: verified, whole body
client %d: verified, whole body
client %d: verified, whole body
