--TEST--
Hook: timed-out and reset reads and writes, and a handshake the peer hangs up on, give what PHP's own plain and TLS sockets give: false on a timeout, '' and 0 after a TLS reset, the same warnings, notices and timed_out flag
--EXTENSIONS--
rapier
openssl
--INI--
default_socket_timeout=5
--FILE--
<?php
require __DIR__ . '/tls.inc';
require __DIR__ . '/silent_peer.inc';
$pem = rapier_test_make_cert('localhost');
[$peer, $plain_port, $tls_port, $reset_port, $hangup_port] = rapier_test_silent_peer($pem);

function timed_out($c): string
{
    return var_export(stream_get_meta_data($c)['timed_out'], true);
}

function probe(string $url, string $pem): void
{
    $ctx = stream_context_create(['ssl' => ['cafile' => $pem, 'peer_name' => 'localhost']]);
    $c = stream_socket_client($url, $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $ctx);
    stream_set_timeout($c, 0, 100000);
    echo 'read: ', var_export(fread($c, 10), true), ' timed_out=', timed_out($c), "\n";
    stream_set_blocking($c, false);
    echo 'non-blocking read: ', var_export(fread($c, 10), true), ' timed_out=', timed_out($c), "\n";
    stream_set_blocking($c, true);
    $n = fwrite($c, str_repeat('x', 16 << 20));   // the peer never reads
    echo 'write: ', is_int($n) && $n > 0 && $n < 16 << 20 ? 'part' : var_export($n, true), ' timed_out=', timed_out($c), "\n";
    fclose($c);
}

function probe_reset(string $url, string $pem): void
{
    $ctx = stream_context_create(['ssl' => ['cafile' => $pem, 'peer_name' => 'localhost']]);
    $c = stream_socket_client($url, $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $ctx);
    fwrite($c, "ping\n");   // the peer closes with this unread: a reset
    rapier_test_wait_reset($c);
    foreach (['read', 'read again'] as $what) {
        $data = fread($c, 10);
        echo $what, ': ', var_export($data, true), ' eof=', var_export(feof($c), true), "\n";
    }
    $n = fwrite($c, 'x');
    echo 'write: ', var_export($n, true), "\n";
    fclose($c);
}

function probe_hangup(int $port, string $pem): void
{
    $ctx = stream_context_create(['ssl' => ['cafile' => $pem, 'peer_name' => 'localhost']]);
    $c = stream_socket_client("tls://127.0.0.1:$port", $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $ctx);
    echo 'tls:// connect: ', var_export($c, true), "\n";
    $c = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 5, STREAM_CLIENT_CONNECT, $ctx);
    $on = stream_socket_enable_crypto($c, true, STREAM_CRYPTO_METHOD_TLS_CLIENT);
    echo 'enable crypto: ', var_export($on, true), "\n";
}

function compare(string $name, callable $probe): void
{
    ob_start();
    $probe();
    $stock = ob_get_clean();
    ob_start();
    Rapier\run($probe);
    $hooked = ob_get_clean();
    // How much of a timed-out write the kernel took varies from run to run.
    [$stock_cmp, $hooked_cmp] = preg_replace('/Send of \d+ bytes/', 'Send of N bytes', [$stock, $hooked]);
    echo $name, ': ', $stock_cmp === $hooked_cmp ? "same\n" : "DIFFERENT\n--- stock\n$stock--- hooked\n", $hooked;
}

compare('tcp', fn() => probe("tcp://127.0.0.1:$plain_port", $pem));
compare('tls', fn() => probe("tls://127.0.0.1:$tls_port", $pem));
compare('tls reset', fn() => probe_reset("tls://127.0.0.1:$reset_port", $pem));
compare('tls hangup', fn() => probe_hangup($hangup_port, $pem));
rapier_test_silent_peer_stop($peer);
?>
--EXPECTF--
tcp: same
read: false timed_out=true
non-blocking read: '' timed_out=true
%ANotice: fwrite(): Send of %d bytes failed with errno=11 Resource temporarily unavailable in %s on line %d
write: part timed_out=true
tls: same
read: false timed_out=true
non-blocking read: '' timed_out=true
write: part timed_out=true
tls reset: same

Warning: fread(): SSL: Connection reset by peer in %s on line %d
read: '' eof=true
read again: '' eof=true
write: 0
tls hangup: same

Warning: stream_socket_client(): Failed to enable crypto in %s on line %d

Warning: stream_socket_client(): Unable to connect to tls://127.0.0.1:%d (Unknown error) in %s on line %d
tls:// connect: false
enable crypto: false
