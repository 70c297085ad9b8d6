--TEST--
Hook: coroutines racing to open the same PDO::ATTR_PERSISTENT connection never crash
--EXTENSIONS--
rapier
mysqlnd
pdo
pdo_mysql
--SKIPIF--
<?php
if (!getenv('RAPIER_TEST_MYSQL_DSN')) die('skip RAPIER_TEST_MYSQL_DSN not set (scripts/services.sh)');
?>
--FILE--
<?php
$dsn = getenv('RAPIER_TEST_MYSQL_DSN');
$user = getenv('RAPIER_TEST_MYSQL_USER');
$password = getenv('RAPIER_TEST_MYSQL_PASSWORD');
$got = [];
Rapier\run(function () use ($dsn, $user, $password, &$got) {
    // PDO looks the handle up, connects, then registers it: a connect that
    // suspended in between let the next coroutine reuse a half-built handle.
    for ($i = 0; $i < 8; $i++) {
        Rapier\go(function () use ($dsn, $user, $password, $i, &$got) {
            $pdo = new PDO($dsn, $user, $password, [PDO::ATTR_PERSISTENT => true]);
            $got[$i] = (int) $pdo->query("SELECT $i + 100")->fetchColumn();
        });
    }
});
ksort($got);
echo implode(',', $got), "\n";
?>
--EXPECT--
100,101,102,103,104,105,106,107
