--TEST--
Hook: PDO's constructor turning warnings into PDOException while it connects does not leak into other coroutines or outlive it
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
set_error_handler(function (int $no, string $message): bool {
    echo "warning: $message\n";
    return true;
});
Rapier\run(function () use ($dsn, $user, $password) {
    // Two connects overlap: each suspends inside PDO::__construct, which
    // throws warnings as PDOException until it returns.
    for ($i = 0; $i < 2; $i++) {
        Rapier\go(fn () => new PDO($dsn, $user, $password));
    }
    Rapier\go(function () {
        trigger_error('during the connects', E_USER_WARNING);
    });
});
preg_match('abc', 'x');
echo "done\n";
?>
--EXPECT--
warning: during the connects
warning: preg_match(): Delimiter must not be alphanumeric, backslash, or NUL
done
