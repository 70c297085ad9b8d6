--TEST--
Hook: coroutines racing on phpredis pconnect() to one server never crash
--EXTENSIONS--
rapier
igbinary
redis
--SKIPIF--
<?php
if (!getenv('RAPIER_TEST_REDIS_PORT')) die('skip RAPIER_TEST_REDIS_PORT not set (scripts/services.sh)');
?>
--FILE--
<?php
$host = getenv('RAPIER_TEST_REDIS_HOST') ?: '127.0.0.1';
$port = (int) getenv('RAPIER_TEST_REDIS_PORT');
$key = 'rapier-test-pconnect-' . getmypid();
$got = [];
Rapier\run(function () use ($host, $port, $key, &$got) {
    for ($i = 0; $i < 8; $i++) {
        Rapier\go(function () use ($host, $port, $key, $i, &$got) {
            $redis = new Redis();
            $redis->pconnect($host, $port);
            $got[$i] = $redis->incr($key);
        });
    }
});
$redis = new Redis();
$redis->connect($host, $port);
var_dump((int) $redis->get($key));
$redis->del($key);
sort($got);
echo implode(',', $got), "\n";
?>
--EXPECT--
int(8)
1,2,3,4,5,6,7,8
