--TEST--
Hook: without Rapier\HOOK_CURL, curl_exec() is libcurl's own and blocks the process; outside a run it is too
--EXTENSIONS--
rapier
curl
--FILE--
<?php
require __DIR__ . '/http_peer.inc';

Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_CURL);
Rapier\run(function () {
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    rapier_test_http_peer($srv);
    // The peer's coroutine never gets to answer while curl blocks the process.
    $ch = rapier_test_curl('http://127.0.0.1:' . rapier_test_port($srv) . '/', [CURLOPT_TIMEOUT_MS => 300]);
    var_dump(curl_exec($ch), curl_errno($ch) === CURLE_OPERATION_TIMEDOUT);
    stream_socket_shutdown($srv, STREAM_SHUT_RDWR);
});

// Outside any run: libcurl as in stock PHP, against a peer in another process.
Rapier\Runtime::enableHooks();
[$server, $port] = rapier_test_http_peer_process();
var_dump(curl_exec(rapier_test_curl("http://127.0.0.1:$port/outside")));
rapier_test_http_peer_process_stop($server);
?>
--EXPECT--
bool(false)
bool(true)
string(8) "/outside"
