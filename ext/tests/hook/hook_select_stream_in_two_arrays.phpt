--TEST--
Hook: stream_select() with one stream in the read and except arrays, or twice in one array, waits for what those arrays ask, as stock PHP does (it returned 0 at once for a writable socket)
--EXTENSIONS--
rapier
--FILE--
<?php
function selects(int $port): void
{
    $c = stream_socket_client("tcp://127.0.0.1:$port");
    $cases = [
        'read and except' => [[$c], null, [$c]],
        'twice in read' => [[$c, $c], null, null],
    ];
    foreach ($cases as $label => [$r, $w, $e]) {
        $t = microtime(true);
        $n = stream_select($r, $w, $e, 0, 300000);
        printf("%s: %d after %s\n", $label, $n, microtime(true) - $t >= 0.25 ? 'the timeout' : 'no wait');
    }
    // Writable: ready at once, in the write array only.
    $r = null;
    $w = [$c];
    $e = [$c];
    printf("write and except: %d, write %d, except %d\n", stream_select($r, $w, $e, 1), count($w), count($e));
}
$srv = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) explode(':', stream_socket_get_name($srv, false))[1];
echo "stock:\n";
selects($port);
echo "hooked:\n";
Rapier\run(fn () => selects($port));
?>
--EXPECT--
stock:
read and except: 0 after the timeout
twice in read: 0 after the timeout
write and except: 1, write 1, except 0
hooked:
read and except: 0 after the timeout
twice in read: 0 after the timeout
write and except: 1, write 1, except 0
