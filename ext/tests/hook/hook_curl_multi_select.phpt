--TEST--
Hook: curl_multi_select() suspends only its coroutine; a host name goes through libcurl's resolver without blocking
--EXTENSIONS--
rapier
curl
--FILE--
<?php
require __DIR__ . '/http_peer.inc';
Rapier\run(function () {
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    rapier_test_http_peer($srv, 100000);
    $port = rapier_test_port($srv);
    $ticks = 0;
    $done = false;
    // Stopped by a flag: cancel() would miss it between two sleeps (it only wakes a waiting coroutine).
    Rapier\go(function () use (&$ticks, &$done) {
        while (!$done) {
            usleep(5000);
            $ticks++;
        }
    });
    $mh = curl_multi_init();
    $handles = [];
    foreach (['127.0.0.1', 'localhost', '127.0.0.1'] as $i => $host) {
        // localhost may resolve to ::1 first, where nothing listens: libcurl then tries 127.0.0.1.
        $handles[$i] = rapier_test_curl("http://$host:$port/multi-$i");
        curl_multi_add_handle($mh, $handles[$i]);
    }
    $selects = 0;
    do {
        $status = curl_multi_exec($mh, $running);
        if ($running) {
            $selects++;
            curl_multi_select($mh, 5.0);
        }
    } while ($running && $status === CURLM_OK);
    foreach ($handles as $ch) {
        echo curl_multi_getcontent($ch), ' ', curl_getinfo($ch, CURLINFO_HTTP_CODE), "\n";
        curl_multi_remove_handle($mh, $ch);
    }
    curl_multi_close($mh);
    var_dump($selects > 0, $ticks > 0);
    $done = true;
    stream_socket_shutdown($srv, STREAM_SHUT_RDWR);
});
?>
--EXPECT--
/multi-0 200
/multi-1 200
/multi-2 200
bool(true)
bool(true)
