--TEST--
Channel: pop() on an empty channel returns false once the timeout passes
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    $ch = new Rapier\Channel();
    $start = hrtime(true);
    var_dump($ch->pop(0.05));
    $elapsed = (hrtime(true) - $start) / 1e9;
    var_dump($elapsed >= 0.049);
    // The timed-out popper left the queue: a later push does not hand it a value.
    var_dump($ch->push('x', 0.01));
    var_dump($ch->length());
});
?>
--EXPECT--
bool(false)
bool(true)
bool(false)
int(0)
