--TEST--
ProcessState: made only by capture(), not cloned or serialized; saved handlers that close over it are collected; a destructor run by restore() is safe
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\ProcessState;

try {
    new ProcessState();
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$state = ProcessState::capture();
try {
    clone $state;
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    serialize($state);
} catch (Exception $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}

// A cycle: the state holds a handler that holds the state.
final class Holder
{
    public ?ProcessState $state = null;
    public function handle(): bool { return true; }
    public function __destruct() { echo "holder freed\n"; }
}
$holder = new Holder();
set_error_handler([$holder, 'handle']);
$holder->state = ProcessState::capture();
restore_error_handler();
unset($holder);
$collected = gc_collect_cycles();
echo "collected: ", $collected > 0 ? 'yes' : 'no', "\n";

// The request's handler is freed by restore() and its destructor sets one more.
final class Rude
{
    public function handle(): bool { return true; }
    public function __destruct()
    {
        echo "rude freed\n";
        set_error_handler(fn() => true);
    }
}
set_error_handler([new Rude(), 'handle']);
print_r($state->restore());
print_r($state->restore());
echo "done\n";
?>
--EXPECT--
Error: Call to private Rapier\ProcessState::__construct() from global scope
Error: Trying to clone an uncloneable object of class Rapier\ProcessState
Exception: Serialization of 'Rapier\ProcessState' is not allowed
holder freed
collected: yes
rude freed
Array
(
    [0] => error_handler
)
Array
(
    [0] => error_handler
)
done
