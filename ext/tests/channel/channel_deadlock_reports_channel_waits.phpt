--TEST--
Channel: coroutines left waiting on channels end Rapier\run() with a DeadlockException naming the waits
--EXTENSIONS--
rapier
--FILE--
<?php
$ref = null;
try {
    Rapier\run(function () use (&$ref) {
        $ch = new Rapier\Channel();
        $ref = WeakReference::create($ch);
        Rapier\go(function () use ($ch) {
            try {
                $ch->push('never taken');
            } finally {
                echo "pusher unwound\n";
            }
        });
        $other = new Rapier\Channel(2);
        $other->push('left in the buffer');
        Rapier\go(fn () => $other->push(['x']) && $other->push('waits forever'));
        (new Rapier\Channel())->pop();
    });
} catch (Rapier\DeadlockException $e) {
    $m = $e->getMessage();
    var_dump(str_contains($m, 'a channel pop'), str_contains($m, 'a channel push'));
}
var_dump($ref->get());
echo "end\n";
?>
--EXPECT--
pusher unwound
bool(true)
bool(true)
NULL
end
