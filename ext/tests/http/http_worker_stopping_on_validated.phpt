--TEST--
HTTP: on("workerStopping") is accepted before start() and throws Rapier\Exception once the server has started, as every event does; an unknown event's ValueError lists workerStopping
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$s = new Rapier\Http\Server('127.0.0.1', 0);
var_dump($s->on('workerStopping', function () {}) === $s);
try {
    $s->on('workerstopping', function () {});
} catch (ValueError $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
$code = <<<'PHP'
function on_worker_start($server, $id) {
    foreach (['workerStopping', 'workerStop'] as $event) {
        try {
            $server->on($event, function () {});
        } catch (Rapier\Exception $e) {
            echo "$event: ", get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
}
PHP;
$srv = http_server_start('function ($req, $res) { $res->end("hi"); }', [], $code,
    '$server->on("workerStopping", function ($s, $id) { echo "workerStopping $id\n"; });');
$res = $srv->stop();
echo "exit: {$res['code']}\n", $res['out'], $res['err'];
?>
--EXPECT--
bool(true)
ValueError: Rapier\Http\Server::on(): Argument #1 ($event) must be one of "request", "workerStart", "workerStopping", "workerStop", "task" or "message"
exit: 0
workerStopping: Rapier\Exception: Cannot set a handler once the server has started
workerStop: Rapier\Exception: Cannot set a handler once the server has started
ready
workerStopping 0
start() returned
