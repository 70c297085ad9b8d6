--TEST--
Hook: libcurl's own timeouts hold in coroutines; Coroutine::cancel() ends a curl_exec() with CanceledException
--EXTENSIONS--
rapier
curl
--FILE--
<?php
require __DIR__ . '/http_peer.inc';
Rapier\run(function () {
    // Accepts (the kernel does, from the backlog) but never answers.
    $silent = stream_socket_server('tcp://127.0.0.1:0');
    $silent_url = 'http://127.0.0.1:' . rapier_test_port($silent) . '/';
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    rapier_test_http_peer($srv);
    $order = [];

    Rapier\go(function () use (&$order) {
        usleep(1000);
        $order[] = 'other coroutine ran';
    });
    /*
     * Long enough that libcurl is still waiting when the other coroutine's
     * 1 ms is up: with 300 ms this failed once under valgrind on a loaded
     * machine, where libcurl's own setup can take that long, so that it
     * times out before it ever waits.
     */
    $ch = rapier_test_curl($silent_url, [CURLOPT_TIMEOUT_MS => 1000]);
    $result = curl_exec($ch);
    $order[] = 'timed out: ' . var_export($result === false && curl_errno($ch) === CURLE_OPERATION_TIMEDOUT, true);
    print_r($order);

    $ch = rapier_test_curl($silent_url);
    $wg = new Rapier\WaitGroup();
    $wg->add();
    $started = false;
    $id = Rapier\go(function () use ($ch, $wg, &$started) {
        Rapier\Coroutine::defer(fn() => $wg->done());
        $started = true;
        try {
            curl_exec($ch);
            echo "not canceled\n";
        } catch (Rapier\CanceledException $e) {
            echo get_class($e), ': ', $e->getMessage(), "\n";
        }
    });
    // Once it has started it waits in libcurl, or libcurl's own timer has
    // just woken it (an answered wait, which cancel() leaves): retry then.
    while (!$started) {
        usleep(1000);
    }
    while (!Rapier\Coroutine::cancel($id)) {
        usleep(1000);
    }
    $wg->wait();

    // The canceled handle still works.
    curl_setopt($ch, CURLOPT_URL, 'http://127.0.0.1:' . rapier_test_port($srv) . '/again');
    var_dump(curl_exec($ch));
    stream_socket_shutdown($srv, STREAM_SHUT_RDWR);
});
?>
--EXPECT--
Array
(
    [0] => other coroutine ran
    [1] => timed out: true
)
Rapier\CanceledException: Coroutine was canceled while waiting in libcurl
string(6) "/again"
