--TEST--
Sleep and stream_select() hooks: a float or numeric-string argument raises PHP's deprecation once, as stock PHP does, and an error handler that throws from it stops the call
--EXTENSIONS--
rapier
--FILE--
<?php
$raised = [];
set_error_handler(function (int $type, string $message) use (&$raised) {
    $raised[] = $message;
    return true;
});

function calls(): void
{
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    $r = [$srv];
    $w = $e = null;
    stream_select($r, $w, $e, 0.01);          // times out: 0 seconds after the cast
    $r = [$srv];
    stream_select($r, $w, $e, 0, 1000.5);
    $r = $e = null;
    $w = [stream_socket_client('tcp://' . stream_socket_get_name($srv, false))];
    stream_select($r, $w, $e, '0' . random_int(1, 1));   // a string made at run time, replaced without a leak
    usleep(1000.5);
    sleep(0.5);
    time_nanosleep(0, 1000.5);
    usleep(-1.5);                             // PHP's ValueError, after the deprecation
}

function run_calls(): string
{
    global $raised;
    $raised = [];
    try {
        calls();
    } catch (ValueError $e) {
        $raised[] = 'ValueError: ' . $e->getMessage();
    }
    return implode("\n", $raised);
}

$stock = run_calls();
$hooked = Rapier\run(fn() => run_calls());
var_dump($stock === $hooked);
echo $hooked, "\n";

// A handler that throws: the call stops with its exception, raised once.
$count = 0;
set_error_handler(function (int $type, string $message) use (&$count) {
    $count++;
    throw new ErrorException($message);
});
Rapier\run(function () use (&$count) {
    foreach ([fn() => usleep(1000.5), fn() => time_nanosleep(0, 1.5),
            fn() => stream_select($r, $w, $e, 0.5)] as $call) {
        $count = 0;
        $r = [stream_socket_server('tcp://127.0.0.1:0')];
        $w = $e = null;
        try {
            $call();
            echo "no exception\n";
        } catch (ErrorException $e) {
            echo $e->getMessage(), " (raised $count time)\n";
        }
    }
});
?>
--EXPECT--
bool(true)
Implicit conversion from float 0.01 to int loses precision
Implicit conversion from float 1000.5 to int loses precision
Implicit conversion from float 1000.5 to int loses precision
Implicit conversion from float 0.5 to int loses precision
Implicit conversion from float 1000.5 to int loses precision
Implicit conversion from float -1.5 to int loses precision
ValueError: usleep(): Argument #1 ($microseconds) must be greater than or equal to 0
Implicit conversion from float 1000.5 to int loses precision (raised 1 time)
Implicit conversion from float 1.5 to int loses precision (raised 1 time)
Implicit conversion from float 0.5 to int loses precision (raised 1 time)
