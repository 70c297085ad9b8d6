--TEST--
Hook: pg_close() of a connection another coroutine's query waits on closes it once that query is done (the query's result intact); pg_connection_reset() of it throws
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
$key = pgsql_test_lock_key();
Rapier\run(function () use ($key) {
    $holder = pgsql_test_connect('holder');
    pgsql_test_scalar($holder, "SELECT pg_advisory_lock($key)");
    $shared = pgsql_test_connect('closed_under_waiter');
    $done = new Rapier\Channel(1);
    Rapier\go(function () use ($shared, $key, $done) {
        $got = pgsql_test_scalar($shared, "SELECT 'got the lock' FROM (SELECT pg_advisory_lock($key)) AS l");
        echo "waiter: $got\n";
        try {
            pg_query($shared, 'SELECT 1');
        } catch (Error $e) {
            echo 'waiter, after: ', $e->getMessage(), "\n";
        }
        $done->push(true);
    });
    pgsql_test_await_lock_waiters($holder, $key);
    var_dump(pg_close($shared));
    echo 'session still there while its query runs: ', pgsql_test_sessions($holder, 'closed_under_waiter'), "\n";
    pgsql_test_scalar($holder, "SELECT pg_advisory_unlock($key)");
    $done->pop();
    // The put-off close runs from the loop once the waiter is out of libpq.
    for ($i = 0; $i < 500 && pgsql_test_sessions($holder, 'closed_under_waiter') > 0; $i++) {
        usleep(10000);
    }
    echo 'session after the query: ', pgsql_test_sessions($holder, 'closed_under_waiter'), "\n";

    $busy = pgsql_test_connect('reset_under_waiter');
    pgsql_test_scalar($holder, "SELECT pg_advisory_lock($key)");
    Rapier\go(function () use ($busy, $key, $done) {
        $got = pgsql_test_scalar($busy, "SELECT 'got the lock' FROM (SELECT pg_advisory_lock($key)) AS l");
        echo "second waiter: $got\n";
        pg_query($busy, "SELECT pg_advisory_unlock($key)");
        $done->push(true);
    });
    pgsql_test_await_lock_waiters($holder, $key);
    try {
        pg_connection_reset($busy);
    } catch (Rapier\Exception $e) {
        echo preg_replace('/#\d+/', '#N', $e->getMessage()), "\n";
    }
    pgsql_test_scalar($holder, "SELECT pg_advisory_unlock($key)");
    $done->pop();
    echo 'the connection still works: ', pgsql_test_scalar($busy, 'SELECT 7'), "\n";
    var_dump(pg_connection_reset($busy));
    echo 'and after a reset: ', pgsql_test_scalar($busy, 'SELECT 8'), "\n";
});
?>
--EXPECT--
bool(true)
session still there while its query runs: 1
waiter: got the lock
waiter, after: PostgreSQL connection has already been closed
session after the query: 0
Cannot reset a PostgreSQL connection while coroutine #N waits on it; use one connection per coroutine, or a pool
second waiter: got the lock
the connection still works: 7
bool(true)
and after a reset: 8
