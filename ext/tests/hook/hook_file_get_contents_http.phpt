--TEST--
Hook: file_get_contents('http://...') yields to an HTTP server coroutine in the same process
--EXTENSIONS--
rapier
--INI--
default_socket_timeout=5
--FILE--
<?php
Rapier\run(function () {
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $addr = stream_socket_get_name($srv, false);
    Rapier\go(function () use ($srv) {
        $conn = stream_socket_accept($srv);
        $request = '';
        while (($line = fgets($conn)) !== false && $line !== "\r\n") {
            $request .= $line;
        }
        $body = 'you asked for ' . explode(' ', $request)[1];
        fwrite($conn, "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
            . strlen($body) . "\r\nConnection: close\r\n\r\n" . $body);
        fclose($conn);
    });
    var_dump(file_get_contents("http://$addr/some/path?x=1"));
    var_dump($http_response_header[0]);
});
?>
--EXPECT--
string(28) "you asked for /some/path?x=1"
string(15) "HTTP/1.0 200 OK"
