--TEST--
Hook: persistent PostgreSQL connections (pg_pconnect, PDO::ATTR_PERSISTENT) are shared safely: coroutines racing to open them never crash, and their waits block instead of interleaving
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
$got = [];
Rapier\run(function () use (&$got) {
    // Each looks the connection up, connects, then registers it: a connect
    // that suspended in between would let the next one destroy it.
    for ($i = 0; $i < 8; $i++) {
        Rapier\go(function () use ($i, &$got) {
            $c = pg_pconnect(pgsql_test_conninfo('application_name=' . pgsql_test_app_name('persistent')));
            $got['pg'][$i] = pgsql_test_scalar($c, "SELECT $i + 100");
        });
        Rapier\go(function () use ($i, &$got) {
            $pdo = pgsql_test_pdo('persistent_pdo', [PDO::ATTR_PERSISTENT => true]);
            $got['pdo'][$i] = $pdo->query("SELECT $i + 200")->fetchColumn();
        });
    }
});
foreach ($got as $kind => $values) {
    ksort($values);
    echo "$kind: ", implode(',', $values), "\n";
}
$c = pgsql_test_connect('observer');
echo 'persistent sessions: pg ', pgsql_test_sessions($c, 'persistent'), ', PDO ', pgsql_test_sessions($c, 'persistent_pdo'), "\n";

// A persistent connection's wait blocks the process, as with the hook off.
$key = pgsql_test_lock_key();
$log = [];
Rapier\run(function () use (&$log, $key) {
    $holder = pgsql_test_connect('holder');
    pgsql_test_scalar($holder, "SELECT pg_advisory_lock($key)");
    Rapier\go(function () use (&$log, $key) {
        $c = pg_pconnect(pgsql_test_conninfo('application_name=' . pgsql_test_app_name('persistent')));
        pg_query($c, 'SET statement_timeout = 1000');
        $r = @pg_query($c, "SELECT pg_advisory_lock($key)");
        $log[] = 'persistent waiter: ' . ($r === false ? trim(pg_last_error($c)) : 'got the lock');
        pg_query($c, 'SET statement_timeout = 20000');
    });
    Rapier\go(function () use (&$log) {
        $log[] = 'another coroutine ran';
    });
    usleep(1000);
    pgsql_test_scalar($holder, "SELECT pg_advisory_unlock($key)");
});
echo implode("\n", $log), "\n";
?>
--EXPECT--
pg: 100,101,102,103,104,105,106,107
pdo: 200,201,202,203,204,205,206,207
persistent sessions: pg 1, PDO 1
persistent waiter: ERROR:  canceling statement due to statement timeout
another coroutine ran
