--TEST--
Channel: push() on a full channel returns false once the timeout passes, without delivering
--EXTENSIONS--
rapier
--FILE--
<?php
Rapier\run(function () {
    $ch = new Rapier\Channel(1);
    var_dump($ch->push('kept'));
    $start = hrtime(true);
    var_dump($ch->push('dropped', 0.05));
    var_dump((hrtime(true) - $start) / 1e9 >= 0.049);
    var_dump($ch->length(), $ch->pop(0), $ch->pop(0));
});
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
int(1)
string(4) "kept"
bool(false)
