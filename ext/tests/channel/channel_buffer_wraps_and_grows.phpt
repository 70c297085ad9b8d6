--TEST--
Channel: values keep their order while the buffer wraps around and grows
--EXTENSIONS--
rapier
--FILE--
<?php
$ch = new Rapier\Channel(100);
$next_in = 0;
$next_out = 0;
$ok = true;
// Interleave pushes and pops so the ring wraps at every size it grows through.
for ($round = 0; $round < 50; $round++) {
    for ($i = 0; $i < 7 && $ch->length() < 100; $i++) {
        $ch->push("v" . $next_in++);
    }
    for ($i = 0; $i < 5 && $ch->length() > 0; $i++) {
        $ok = $ok && $ch->pop() === "v" . $next_out++;
    }
}
while ($ch->length() > 0) {
    $ok = $ok && $ch->pop() === "v" . $next_out++;
}
var_dump($ok, $next_in === $next_out, $next_in);
?>
--EXPECT--
bool(true)
bool(true)
int(345)
