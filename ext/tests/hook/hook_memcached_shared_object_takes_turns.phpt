--TEST--
Hook: coroutines sharing one Memcached object (or one persistent id) take turns: each call gets its own answer, in arrival order; a getDelayed() caller keeps the connection until it has fetched, or has ended; a read-through callback may use its object; a canceled caller gets CanceledException and the next one a correct answer
--EXTENSIONS--
rapier
igbinary
msgpack
memcached
--SKIPIF--
<?php
if (!is_executable('/usr/bin/memcached')) die('skip the memcached server is not installed (scripts/install-deps.sh)');
?>
--FILE--
<?php
require __DIR__ . '/memcached.inc';
$server = new MemcachedTestServer();
$setup = $server->client();
for ($i = 0; $i < 4; $i++) {
    $setup->set("k$i", "v$i");
}
$setup->delete('computed');

function report(array $log): void
{
    echo implode("\n", $log), "\n";
}

echo "-- one object, four coroutines, the server paused:\n";
$log = [];
Rapier\run(function () use ($server, &$log) {
    $m = $server->client();
    $m->get('k0');
    $server->pause();
    for ($i = 0; $i < 4; $i++) {
        Rapier\go(function () use ($m, $i, &$log) {
            $log[] = "set n$i: " . var_export($m->set("n$i", "value $i"), true);
            $log[] = "get n$i: " . $m->get("n$i");
        });
    }
    usleep(1000);
    $server->resume();
});
report($log);

echo "-- two objects of one persistent id:\n";
$log = [];
Rapier\run(function () use ($server, &$log) {
    $first = $server->client('rapier-shared');
    $first->get('k0');
    $server->pause();
    foreach ([1, 2] as $i) {
        Rapier\go(function () use ($server, $i, &$log) {
            $m = $server->client('rapier-shared');
            $log[] = "object $i, same connection: " . var_export($m->isPristine() === false, true);
            $log[] = "object $i: " . $m->get("k$i");
        });
    }
    usleep(1000);
    $server->resume();
});
report($log);

echo "-- getDelayed(), a wait, then fetchAll(), while another coroutine calls get():\n";
$log = [];
Rapier\run(function () use ($server, &$log) {
    $m = $server->client();
    Rapier\go(function () use ($m, &$log) {
        $m->getDelayed(['k0', 'k1']);
        usleep(5000);   // others run meanwhile, but not on this connection
        $rows = $m->fetchAll();
        $log[] = 'fetched: ' . implode(' ', array_map(fn ($r) => "$r[key]=$r[value]", $rows));
    });
    Rapier\go(function () use ($m, &$log) {
        $log[] = 'get: ' . $m->get('k2');
    });
});
report($log);

echo "-- getDelayed() by a coroutine that ends without fetching:\n";
$log = [];
Rapier\run(function () use ($server, &$log) {
    $m = $server->client();
    Rapier\go(function () use ($m, &$log) {
        $log[] = 'getDelayed: ' . var_export($m->getDelayed(['k0', 'k1']), true);
        usleep(5000);
        $log[] = 'ends';
    });
    Rapier\go(function () use ($m, &$log) {
        $log[] = 'get: ' . $m->get('k3');
    });
});
report($log);

echo "-- a read-through callback using its own object:\n";
Rapier\run(function () use ($server) {
    $m = $server->client();
    $got = $m->get('computed', function (Memcached $memc, string $key, &$value) {
        $value = 'computed from ' . $memc->get('k0');
        return true;   // stored, and returned by get()
    });
    echo $got, ', stored: ', $m->get('computed'), "\n";
});

echo "-- canceled while waiting for its turn, and while waiting for the server:\n";
$log = [];
Rapier\run(function () use ($server, &$log) {
    $m = $server->client();
    $m->get('k0');
    $server->pause();
    $ids = [];
    foreach (['A' => 'k0', 'B' => 'k1', 'C' => 'k2'] as $name => $key) {
        $ids[$name] = Rapier\go(function () use ($m, $name, $key, &$log) {
            try {
                $log[] = "$name: " . $m->get($key);
            } catch (Rapier\CanceledException $e) {
                $log[] = "$name: " . $e->getMessage();
            }
        });
    }
    usleep(1000);
    Rapier\Coroutine::cancel($ids['B']);
    usleep(1000);
    Rapier\Coroutine::cancel($ids['A']);
    usleep(1000);
    $server->resume();
});
report(preg_replace('/#\d+/', '#N', $log));
echo "after the run: ", $setup->get('k1'), "\n";
$server->stop();
?>
--EXPECT--
-- one object, four coroutines, the server paused:
set n0: true
set n1: true
set n2: true
set n3: true
get n0: value 0
get n1: value 1
get n2: value 2
get n3: value 3
-- two objects of one persistent id:
object 1, same connection: true
object 1: v1
object 2, same connection: true
object 2: v2
-- getDelayed(), a wait, then fetchAll(), while another coroutine calls get():
fetched: k0=v0 k1=v1
get: v2
-- getDelayed() by a coroutine that ends without fetching:
getDelayed: true
ends
get: v3
-- a read-through callback using its own object:
computed from v0, stored: computed from v0
-- canceled while waiting for its turn, and while waiting for the server:
B: Coroutine was canceled while waiting for its turn to call Memcached::get() (coroutine #N was using the connection)
A: Coroutine was canceled while waiting in libmemcached
C: v2
after the run: v1
