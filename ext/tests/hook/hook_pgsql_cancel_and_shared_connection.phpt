--TEST--
Hook: Coroutine::cancel() of a coroutine waiting in libpq throws CanceledException; a second coroutine using a connection another waits on gets Rapier\Exception; neither crashes
--EXTENSIONS--
rapier
pgsql
pdo
pdo_pgsql
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

    $waiter = Rapier\go(function () use ($key) {
        $pdo = pgsql_test_pdo('canceled');
        try {
            $pdo->query("SELECT pg_advisory_lock($key)");
        } catch (Rapier\CanceledException $e) {
            echo get_class($e), ': ', $e->getMessage(), "\n";
        }
    });
    pgsql_test_await_lock_waiters($holder, $key);
    var_dump(Rapier\Coroutine::cancel($waiter));
    usleep(10000);

    // The canceled query still waits in the server: the next waiter is told apart by another lock.
    $key2 = pgsql_test_lock_key(1);
    pgsql_test_scalar($holder, "SELECT pg_advisory_lock($key2)");
    $shared = pgsql_test_connect('shared');
    $ended = new Rapier\Channel(1);
    Rapier\go(function () use ($shared, $key2, $ended) {
        // Its result is not defined once another coroutine has misused the connection.
        @pg_query($shared, "SELECT pg_advisory_lock($key2)");
        echo "first user: its query ended\n";
        $ended->push(true);
    });
    pgsql_test_await_lock_waiters($holder, $key2);
    try {
        @pg_query($shared, 'SELECT 1');
    } catch (Rapier\Exception $e) {
        echo get_class($e), ': ', preg_replace('/(fd |#)\d+/', '$1N', $e->getMessage()), "\n";
    }
    pgsql_test_scalar($holder, "SELECT pg_advisory_unlock($key2)");
    $ended->pop();
    pg_close($shared);
    echo 'a new connection works: ', pgsql_test_scalar(pgsql_test_connect('after'), 'SELECT 9'), "\n";
});
?>
--EXPECT--
bool(true)
Rapier\CanceledException: Coroutine was canceled while waiting in libpq
Rapier\Exception: Cannot wait for socket fd N in libpq: coroutine #N is already waiting for it; use one connection per coroutine, or a pool
first user: its query ended
a new connection works: 9
