--TEST--
Hook: Memcached calls suspend only their coroutine: other coroutines run while a paused memcached holds a get() and an increment(), the answers arrive whole once it resumes, and with HOOK_MEMCACHED off the call holds up the whole process
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

// Outside a run: stock behaviour.
$setup = $server->client();
var_dump($setup->set('greeting', 'hello'), $setup->set('counter', 1), $setup->get('greeting'));

function scenario(MemcachedTestServer $server, string $host, int $pollTimeoutMs): array
{
    $log = [];
    Rapier\run(function () use ($server, $host, $pollTimeoutMs, &$log) {
        // Two objects, two connections: each made (and the host name looked up) inside the run.
        $a = $server->client(null, $host);
        $b = $server->client(null, $host);
        $a->setOption(Memcached::OPT_POLL_TIMEOUT, $pollTimeoutMs);
        $b->setOption(Memcached::OPT_POLL_TIMEOUT, $pollTimeoutMs);
        $a->get('greeting');
        $b->get('greeting');
        $server->pause();
        Rapier\go(function () use ($a, &$log) {
            $v = $a->get('greeting');
            $log[] = 'get: ' . var_export($v, true) . ($v === false ? ' (' . $a->getResultMessage() . ')' : '');
        });
        Rapier\go(function () use ($b, &$log) {
            $v = $b->increment('counter');
            $log[] = 'increment: ' . var_export($v, true) . ($v === false ? ' (' . $b->getResultMessage() . ')' : '');
        });
        for ($i = 1; $i <= 3; $i++) {
            usleep(1000);
            $log[] = "tick $i";
        }
        $server->resume();
    });
    return $log;
}

echo "HOOK_MEMCACHED on:\n";
$log = scenario($server, '127.0.0.1', 30000);
$answers = array_splice($log, 3);
sort($answers);
echo implode("\n", array_merge($log, $answers)), "\n";

echo "HOOK_MEMCACHED on, a host name:\n";
$log = scenario($server, 'localhost', 30000);
$answers = array_splice($log, 3);
sort($answers);
echo implode("\n", array_merge($log, $answers)), "\n";

// Off: the paused server answers nothing until the ticking coroutine
// resumes it, and that coroutine cannot run until the calls give up.
echo "HOOK_MEMCACHED off:\n";
Rapier\Runtime::enableHooks(Rapier\HOOK_ALL & ~Rapier\HOOK_MEMCACHED);
echo implode("\n", scenario($server, '127.0.0.1', 300)), "\n";
Rapier\Runtime::enableHooks(Rapier\HOOK_ALL);

$check = $server->client();
var_dump($check->get('counter') >= 3);
$server->stop();
?>
--EXPECT--
bool(true)
bool(true)
string(5) "hello"
HOOK_MEMCACHED on:
tick 1
tick 2
tick 3
get: 'hello'
increment: 2
HOOK_MEMCACHED on, a host name:
tick 1
tick 2
tick 3
get: 'hello'
increment: 3
HOOK_MEMCACHED off:
get: false (A TIMEOUT OCCURRED)
increment: false (A TIMEOUT OCCURRED)
tick 1
tick 2
tick 3
bool(true)
