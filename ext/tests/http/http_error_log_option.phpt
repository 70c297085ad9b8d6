--TEST--
HTTP: the error_log option sends PHP's errors and uncaught handler exceptions to a file instead of stderr
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$log = tempnam(sys_get_temp_dir(), 'rapier-error-log-');
$srv = http_server_start('function ($req, $res) {
    trigger_error("a warning from the app", E_USER_WARNING);
    throw new LogicException("the handler failed");
}', ['error_log' => $log]);
echo http_get($srv->port, '/')['status'], "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n";
$text = file_get_contents($log);
echo "warning logged: ", var_export(str_contains($text, 'a warning from the app'), true), "\n";
echo "exception logged: ", var_export(str_contains($text, 'LogicException: the handler failed'), true), "\n";
echo "nothing on stderr: ", var_export(!str_contains($r['err'], 'the handler failed') && !str_contains($r['err'], 'a warning'), true), "\n";
unlink($log);
try {
    new Rapier\Http\Server('127.0.0.1', 0, ['error_log' => '']);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
$s = new Rapier\Http\Server('127.0.0.1', 0, ['workers' => 0, 'error_log' => '/nonexistent-dir/x.log']);
$s->on('request', fn() => null);
try {
    $s->start();
} catch (Rapier\Exception $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
500
exit: 0
warning logged: true
exception logged: true
nothing on stderr: true
Rapier\Http\Server::__construct(): Argument #3 ($options) option "error_log" must be a non-empty string
Cannot open error_log /nonexistent-dir/x.log: No such file or directory
