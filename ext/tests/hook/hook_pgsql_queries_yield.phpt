--TEST--
Hook: pg_query() and PDO (pdo_pgsql) suspend only their coroutine while PostgreSQL works: a query waiting for a lock lets the holder run and release it
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
$log = [];
$key = pgsql_test_lock_key();
Rapier\run(function () use (&$log, $key) {
    $holder = pgsql_test_connect('holder');
    pgsql_test_scalar($holder, "SELECT pg_advisory_lock($key)");
    Rapier\go(function () use (&$log, $key) {
        $c = pgsql_test_connect('pg_waiter');
        $log[] = 'pg_query: ' . pgsql_test_scalar($c, "SELECT 'got the lock' FROM (SELECT pg_advisory_lock($key)) AS l");
        pg_query($c, "SELECT pg_advisory_unlock($key)");
    });
    Rapier\go(function () use (&$log, $key) {
        $pdo = pgsql_test_pdo('pdo_waiter');
        $log[] = 'PDO: ' . $pdo->query("SELECT 'got the lock' FROM (SELECT pg_advisory_lock($key)) AS l")->fetchColumn();
        $pdo->query("SELECT pg_advisory_unlock($key)");
    });
    // Both waiters are inside PostgreSQL now; only this coroutine can let them go.
    pgsql_test_await_lock_waiters($holder, $key, 2);
    $log[] = 'holder releases';
    pgsql_test_scalar($holder, "SELECT pg_advisory_unlock($key)");
});
echo array_shift($log), "\n";
sort($log);
echo implode("\n", $log), "\n";

// Prepared statements, parameters and many rows come back whole.
Rapier\run(function () {
    $wg = new Rapier\WaitGroup();
    $sums = [];
    for ($i = 1; $i <= 4; $i++) {
        $wg->add();
        Rapier\go(function () use ($i, $wg, &$sums) {
            $c = pgsql_test_connect("sum$i");
            pg_prepare($c, 'upto', 'SELECT n FROM generate_series(1, $1::int) AS n');
            $r = pg_execute($c, 'upto', [1000 * $i]);
            $sums["pg $i"] = array_sum(pg_fetch_all_columns($r));
            $pdo = pgsql_test_pdo("pdo$i");
            $st = $pdo->prepare('SELECT n, md5(n::text) FROM generate_series(1, ?) AS n');
            $st->execute([1000 * $i]);
            $sums["pdo $i"] = count($st->fetchAll());
            $wg->done();
        });
    }
    $wg->wait();
    ksort($sums);
    foreach ($sums as $k => $v) {
        echo "$k: $v\n";
    }
});
?>
--EXPECT--
holder releases
PDO: got the lock
pg_query: got the lock
pdo 1: 1000
pdo 2: 2000
pdo 3: 3000
pdo 4: 4000
pg 1: 500500
pg 2: 2001000
pg 3: 4501500
pg 4: 8002000
