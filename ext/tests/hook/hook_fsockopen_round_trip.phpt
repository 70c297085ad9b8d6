--TEST--
Hook: fsockopen() returns a hooked stream whose reads yield to a server coroutine
--EXTENSIONS--
rapier
--INI--
default_socket_timeout=5
--FILE--
<?php
Rapier\run(function () {
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $port = parse_url('tcp://' . stream_socket_get_name($srv, false), PHP_URL_PORT);
    Rapier\go(function () use ($srv) {
        $conn = stream_socket_accept($srv);
        fwrite($conn, strtoupper(fgets($conn)));
        fclose($conn);
    });
    $fp = fsockopen('127.0.0.1', $port, $errno, $errstr, 5);
    var_dump(stream_get_meta_data($fp)['stream_type']);
    fwrite($fp, "hello over fsockopen\n");
    var_dump(fgets($fp));
    var_dump(fgets($fp), feof($fp));
    fclose($fp);
});
?>
--EXPECT--
string(17) "tcp_socket/rapier"
string(21) "HELLO OVER FSOCKOPEN
"
bool(false)
bool(true)
