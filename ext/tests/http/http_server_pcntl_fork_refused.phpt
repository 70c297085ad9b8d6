--TEST--
HTTP: pcntl_fork() in a process of the server while it serves (a handler, workerStart) throws Rapier\Exception saying what to use instead, and the server serves on; before start() and after it returned, pcntl_fork() is PHP's
--EXTENSIONS--
rapier
pcntl
--FILE--
<?php
require __DIR__ . '/server.inc';
$code = 'function try_fork(): string {
    try {
        $pid = pcntl_fork();
    } catch (Rapier\Exception $e) {
        return get_class($e) . ": " . $e->getMessage();
    }
    if ($pid === 0) {
        exit(5);
    }
    pcntl_waitpid($pid, $status);
    return "forked, the child exited with " . pcntl_wexitstatus($status);
}
echo "before start(): ", try_fork(), "\n";
function on_worker_start() {
    echo "workerStart: ", try_fork(), "\n";
}';
$handler = 'function ($req, $res) {
    $res->end($req->path === "/fork" ? try_fork() : "served");
}';
$after = 'register_shutdown_function(function () {
    echo "after start(): ", try_fork(), "\n";
});';
$srv = http_server_start($handler, [], $code, $after);
echo "handler: ", http_get($srv->port, '/fork')['body'], "\n";
echo "then: ", http_get($srv->port, '/')['body'], "\n";
$res = $srv->stop();
echo $res['out'];
echo "exit: {$res['code']}\n", trim($res['err']) === '' ? '' : "stderr:\n{$res['err']}\n";
?>
--EXPECT--
handler: Rapier\Exception: Cannot pcntl_fork() a process of the server while it serves: the child would be a second copy of it, with its connections, coroutines and timers. Run a command with proc_open() or exec(), and work in the background with Server::task() or a user process (Server::addProcess())
then: served
before start(): forked, the child exited with 5
workerStart: Rapier\Exception: Cannot pcntl_fork() a process of the server while it serves: the child would be a second copy of it, with its connections, coroutines and timers. Run a command with proc_open() or exec(), and work in the background with Server::task() or a user process (Server::addProcess())
ready
start() returned
after start(): forked, the child exited with 5
exit: 0
