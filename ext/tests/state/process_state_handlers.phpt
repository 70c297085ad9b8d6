--TEST--
ProcessState: error and exception handlers, their stacks and error levels go back to boot's
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\ProcessState;

function show(string $label): void
{
    $h = set_error_handler(null);
    restore_error_handler();
    $e = set_exception_handler(null);
    restore_exception_handler();
    echo $label, ': ', $h ? $h('x') : 'none', ' / ', $e ? $e('x') : 'none', "\n";
}

$outer = fn() => 'outer';
set_error_handler($outer);
set_error_handler(fn() => 'boot', E_WARNING);
set_exception_handler(fn() => 'boot-exc');
$state = ProcessState::capture();
show('boot');

// Pushed and never popped.
set_error_handler(fn() => 'request');
set_error_handler(fn() => 'request2');
set_exception_handler(fn() => 'request-exc');
show('request');
print_r($state->restore());
show('after');
restore_error_handler();
show('boot stack');
set_error_handler(fn() => 'boot', E_WARNING);
$state = ProcessState::capture();

// Popped below boot's.
restore_error_handler();
restore_error_handler();
restore_exception_handler();
show('popped');
print_r($state->restore());
show('after');

// The same handler set again for other error levels is a change too.
$boot = set_error_handler(null);
restore_error_handler();
set_error_handler($boot, E_ALL);
print_r($state->restore());
trigger_error('a notice the boot handler does not take', E_USER_NOTICE);
echo "\n";
?>
--EXPECTF--
boot: boot / boot-exc
request: request2 / request-exc
Array
(
    [0] => error_handler
    [1] => exception_handler
)
after: boot / boot-exc
boot stack: outer / boot-exc
popped: none / none
Array
(
    [0] => error_handler
    [1] => exception_handler
)
after: boot / boot-exc
Array
(
    [0] => error_handler
)

Notice: a notice the boot handler does not take in %s on line %d
