--TEST--
A deadlock makes Rapier\run() throw DeadlockException naming how many are stuck
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
?>
--EXPECTF--
stuck coroutine unwound
Deadlock: 2 coroutines can never be woken (1 waiting on %s, 1 waiting on %s): nothing left in the loop to wake them
