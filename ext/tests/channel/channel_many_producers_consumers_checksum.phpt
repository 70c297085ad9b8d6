--TEST--
Channel: 10,000 values through many producers and consumers, none lost or duplicated
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Channel;
use Rapier\WaitGroup;

foreach ([0, 1, 16] as $capacity) {
    $result = Rapier\run(function () use ($capacity) {
        $ch = new Channel($capacity);
        $producers = new WaitGroup();
        $consumers = new WaitGroup();
        $seen = [];
        $sum = 0;
        for ($p = 0; $p < 10; $p++) {
            $producers->add();
            Rapier\go(function () use ($ch, $producers, $p) {
                for ($i = 0; $i < 1000; $i++) {
                    $ch->push($p * 1000 + $i);
                }
                $producers->done();
            });
        }
        for ($c = 0; $c < 7; $c++) {
            $consumers->add();
            Rapier\go(function () use ($ch, $consumers, &$seen, &$sum) {
                while (($v = $ch->pop()) !== false) {
                    $seen[$v] = ($seen[$v] ?? 0) + 1;
                    $sum += $v;
                }
                $consumers->done();
            });
        }
        $producers->wait();
        $ch->close();
        $consumers->wait();
        return [count($seen), max($seen), $sum, $ch->length()];
    });
    echo "capacity $capacity: ", json_encode($result), "\n";
}
?>
--EXPECT--
capacity 0: [10000,1,49995000,0]
capacity 1: [10000,1,49995000,0]
capacity 16: [10000,1,49995000,0]
