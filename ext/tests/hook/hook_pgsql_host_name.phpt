--TEST--
Hook: libpq connects by host name inside coroutines (the name is looked up on a resolver thread): pg_connect(), pg_connect_async(), PDO and pg_pconnect() reach the server named localhost
--EXTENSIONS--
rapier
pgsql
pdo
pdo_pgsql
--SKIPIF--
<?php
if (!getenv('RAPIER_TEST_PGSQL_CONNINFO')) die('skip RAPIER_TEST_PGSQL_CONNINFO not set (scripts/services.sh)');
if (gethostbyname('localhost') !== '127.0.0.1') die('skip localhost does not resolve to 127.0.0.1 here');
?>
--FILE--
<?php
require __DIR__ . '/pgsql.inc';
/* The services' conninfo names 127.0.0.1: the same server, by name. */
$conninfo = str_replace('host=127.0.0.1', 'host=localhost', pgsql_test_conninfo());
$dsn = str_replace('host=127.0.0.1', 'host=localhost', getenv('RAPIER_TEST_PGSQL_DSN'));
$user = getenv('RAPIER_TEST_PGSQL_USER');
$password = getenv('RAPIER_TEST_PGSQL_PASSWORD');
$seen = [];
Rapier\run(function () use ($conninfo, $dsn, $user, $password, &$seen) {
    $wg = new Rapier\WaitGroup();
    for ($i = 0; $i < 3; $i++) {
        $wg->add();
        Rapier\go(function () use ($i, $conninfo, &$seen, $wg) {
            $c = pg_connect("$conninfo application_name=byname$i", PGSQL_CONNECT_FORCE_NEW);
            $seen["pg_connect $i"] = pg_host($c) . ': ' . pgsql_test_scalar($c, "SELECT 'ok $i'");
            pg_close($c);
            $wg->done();
        });
        $wg->add();
        Rapier\go(function () use ($i, $dsn, $user, $password, &$seen, $wg) {
            $pdo = new PDO("$dsn;application_name=pdo$i", $user, $password);
            $seen["PDO $i"] = $pdo->query("SELECT 'ok $i'")->fetchColumn();
            $wg->done();
        });
    }
    $wg->add();
    Rapier\go(function () use ($conninfo, &$seen, $wg) {
        $c = pg_connect($conninfo, PGSQL_CONNECT_FORCE_NEW | PGSQL_CONNECT_ASYNC);
        $socket = pg_socket($c);
        do {
            $status = pg_connect_poll($c);
            $read = $write = [];
            $status === PGSQL_POLLING_READING ? $read = [$socket] : $write = [$socket];
            if ($status !== PGSQL_POLLING_OK && $status !== PGSQL_POLLING_FAILED) {
                $none = null;
                stream_select($read, $write, $none, 5);
            }
        } while ($status !== PGSQL_POLLING_OK && $status !== PGSQL_POLLING_FAILED);
        $seen['pg_connect_async'] = $status === PGSQL_POLLING_OK ? pgsql_test_scalar($c, "SELECT 'ok'") : pg_last_error($c);
        $wg->done();
    });
    $wg->add();
    Rapier\go(function () use ($conninfo, &$seen, $wg) {
        /* Persistent connects block, the lookup included (hooks.md). */
        $c = pg_pconnect("$conninfo application_name=pconnect_by_name");
        $seen['pg_pconnect'] = pgsql_test_scalar($c, "SELECT 'ok'");
        $wg->done();
    });
    $wg->wait();
});
ksort($seen);
foreach ($seen as $what => $result) {
    echo "$what: $result\n";
}
/* Outside a coroutine, libpq's own lookup. */
$c = pg_connect($conninfo, PGSQL_CONNECT_FORCE_NEW);
echo "outside: ", pgsql_test_scalar($c, "SELECT 'ok'"), "\n";
?>
--EXPECT--
PDO 0: ok 0
PDO 1: ok 1
PDO 2: ok 2
pg_connect 0: localhost: ok 0
pg_connect 1: localhost: ok 1
pg_connect 2: localhost: ok 2
pg_connect_async: ok
pg_pconnect: ok
outside: ok
