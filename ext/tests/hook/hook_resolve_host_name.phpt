--TEST--
Hook: a host name resolves on a thread inside a coroutine (localhost from /etc/hosts), and a name that cannot resolve warns as stock PHP does
--EXTENSIONS--
rapier
--FILE--
<?php
function attempt(string $host, int $port): void
{
    $c = stream_socket_client("tcp://$host:$port", $errno, $errstr, 5);
    var_dump($c === false ? false : stream_socket_get_name($c, true), $errno, $errstr);
}

$port = 0;
Rapier\run(function () use (&$port) {
    $server = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr(strrchr(stream_socket_get_name($server, false), ':'), 1);
    // Several at once, each in its coroutine, beside one that echoes.
    for ($i = 0; $i < 3; $i++) {
        Rapier\go(function () use ($port) {
            $c = stream_socket_client("tcp://localhost:$port", $errno, $errstr, 5);
            fwrite($c, "ping\n");
            echo 'reply: ' . fgets($c);
        });
    }
    for ($i = 0; $i < 3; $i++) {
        $peer = stream_socket_accept($server, 5);
        Rapier\go(function () use ($peer) {
            fwrite($peer, 'pong ' . trim(fgets($peer)) . "\n");
        });
    }
});

// An empty label fails inside glibc, without asking any DNS server.
attempt('a..b', $port);
Rapier\run(fn () => attempt('a..b', $port));
?>
--EXPECTF--
reply: pong ping
reply: pong ping
reply: pong ping

Warning: stream_socket_client(): php_network_getaddresses: getaddrinfo for a..b failed: Name or service not known in %s on line %d

Warning: stream_socket_client(): Unable to connect to tcp://a..b:%d (php_network_getaddresses: getaddrinfo for a..b failed: Name or service not known) in %s on line %d
bool(false)
int(0)
string(80) "php_network_getaddresses: getaddrinfo for a..b failed: Name or service not known"

Warning: stream_socket_client(): php_network_getaddresses: getaddrinfo for a..b failed: Name or service not known in %s on line %d

Warning: stream_socket_client(): Unable to connect to tcp://a..b:%d (php_network_getaddresses: getaddrinfo for a..b failed: Name or service not known) in %s on line %d
bool(false)
int(0)
string(80) "php_network_getaddresses: getaddrinfo for a..b failed: Name or service not known"
