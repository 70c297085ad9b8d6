--TEST--
Hook: with Rapier\HOOK_PGSQL off, and outside a run, libpq blocks as in stock PHP: a query waiting for a lock holds up every coroutine until its statement_timeout
--EXTENSIONS--
rapier
pgsql
--SKIPIF--
<?php
if (!getenv('RAPIER_TEST_PGSQL_CONNINFO')) die('skip RAPIER_TEST_PGSQL_CONNINFO not set (scripts/services.sh)');
?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';
$c = pgsql_test_connect('outside');
echo 'outside a run: ', pgsql_test_scalar($c, 'SELECT 40 + 2'), "\n";
pg_close($c);

$key = pgsql_test_lock_key();
$log = [];
Rapier\run(function () use (&$log, $key) {
    Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_PGSQL);
    $holder = pgsql_test_connect('holder');
    pgsql_test_scalar($holder, "SELECT pg_advisory_lock($key)");
    Rapier\go(function () use (&$log, $key) {
        $c = pgsql_test_connect('blocked_waiter');
        pg_query($c, 'SET statement_timeout = 1000');
        $r = @pg_query($c, "SELECT pg_advisory_lock($key)");
        $log[] = 'waiter: ' . ($r === false ? trim(pg_last_error($c)) : 'got the lock');
    });
    // The waiter ran first and kept the process until PostgreSQL gave up on it.
    Rapier\go(function () use (&$log) {
        $log[] = 'another coroutine ran';
    });
    usleep(1000);
    pgsql_test_scalar($holder, "SELECT pg_advisory_unlock($key)");
});
echo implode("\n", $log), "\n";
?>
--EXPECT--
outside a run: 42
waiter: ERROR:  canceling statement due to statement timeout
another coroutine ran
