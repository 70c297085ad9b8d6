--TEST--
Hook: stream_socket_accept() with no client waiting fails with PHP's own "Connection timed out", for a zero timeout as for a short one; a canceled one throws CanceledException, and the warning PHP adds says "Operation canceled"
--EXTENSIONS--
rapier
--FILE--
<?php
function accepts(): array
{
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $seen = [];
    foreach ([0, 0.05] as $timeout) {
        $client = @stream_socket_accept($srv, $timeout);
        $seen[] = var_export($client, true) . ' ' . error_get_last()['message'];
        error_clear_last();
    }
    return $seen;
}
$stock = accepts();
$hooked = Rapier\run(fn() => accepts());
var_dump($stock === $hooked);
echo implode("\n", $hooked), "\n";

Rapier\run(function () {
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $acceptor = Rapier\go(function () use ($srv) {
        try {
            @stream_socket_accept($srv, -1);
        } catch (Rapier\CanceledException $e) {
            echo get_class($e), "; ", error_get_last()['message'], "\n";
        }
    });
    Rapier\Coroutine::sleep(0.01);
    Rapier\Coroutine::cancel($acceptor);
});
?>
--EXPECT--
bool(true)
false stream_socket_accept(): Accept failed: Connection timed out
false stream_socket_accept(): Accept failed: Connection timed out
Rapier\CanceledException; stream_socket_accept(): Accept failed: Operation canceled
