--TEST--
A deadlock makes Rapier\run() throw DeadlockException naming how many are stuck, on what, and where the first eight wait
--EXTENSIONS--
rapier
--FILE--
<?php
try {
    Rapier\run(function () {
        $ch = new Rapier\Channel();
        Rapier\go(function () use ($ch) {
            try {
                $ch->pop();
            } finally {
                echo "stuck coroutine unwound\n";
            }
        });
        $wg = new Rapier\WaitGroup();
        $wg->add(1);
        $wg->wait();
    });
} catch (Rapier\DeadlockException $e) {
    echo $e->getMessage(), "\n";
}

try {
    Rapier\run(function () {
        $ch = new Rapier\Channel();
        for ($i = 0; $i < 10; $i++) {
            Rapier\go([$ch, 'pop']);
        }
    });
} catch (Rapier\DeadlockException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECTF--
stuck coroutine unwound
Deadlock: 2 coroutines can never be woken (1 waiting on %s, 1 waiting on %s): nothing left in the loop to wake them: #1 in Rapier\WaitGroup->wait() at %scoroutine_deadlock_detected.php:14; #2 in Rapier\Channel->pop() at %scoroutine_deadlock_detected.php:7
Deadlock: 10 coroutines can never be woken (10 waiting on a channel pop): nothing left in the loop to wake them: #2 in Rapier\Channel->pop(); #3 in Rapier\Channel->pop(); #4 in Rapier\Channel->pop(); #5 in Rapier\Channel->pop(); #6 in Rapier\Channel->pop(); #7 in Rapier\Channel->pop(); #8 in Rapier\Channel->pop(); #9 in Rapier\Channel->pop(); and 2 more
