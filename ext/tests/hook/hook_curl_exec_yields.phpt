--TEST--
Hook: curl_exec() in coroutines suspends only its coroutine; a server in the same process answers it
--EXTENSIONS--
rapier
curl
--FILE--
<?php
require __DIR__ . '/http_peer.inc';
Rapier\run(function () {
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    rapier_test_http_peer($srv, 200000);
    $port = rapier_test_port($srv);
    $order = [];
    $answers = [];
    $wg = new Rapier\WaitGroup();
    for ($i = 1; $i <= 3; $i++) {
        $wg->add();
        Rapier\go(function () use ($port, $i, $wg, &$order, &$answers) {
            $ch = rapier_test_curl("http://127.0.0.1:$port/client-$i");
            $answers[$i] = var_export(curl_exec($ch), true) . ' ' . curl_getinfo($ch, CURLINFO_HTTP_CODE);
            /* The three answers are all due 0.2 s after their requests: they may come in any order. */
            $order[] = 'a client';
            $wg->done();
        });
    }
    // Only runs while the clients wait, if they do not block the process.
    Rapier\go(function () use (&$order) {
        usleep(1000);
        $order[] = 'other coroutine ran';
    });
    $wg->wait();
    ksort($answers);
    print_r($order);
    print_r($answers);
    stream_socket_shutdown($srv, STREAM_SHUT_RDWR);
});
?>
--EXPECT--
Array
(
    [0] => other coroutine ran
    [1] => a client
    [2] => a client
    [3] => a client
)
Array
(
    [1] => '/client-1' 200
    [2] => '/client-2' 200
    [3] => '/client-3' 200
)
