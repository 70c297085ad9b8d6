--TEST--
Hook: a fatal error that ends the run while a coroutine's exec() runs its command kills and reaps the command
--EXTENSIONS--
rapier
--XLEAK--
A fatal error leaves the objects of suspended fibers unfreed, as it does with plain Fibers in stock PHP (under make asan, the --ENV-- turns LeakSanitizer off for the same reason).
--ENV--
LSAN_OPTIONS=detect_leaks=0
--FILE--
<?php
require __DIR__ . '/proc.inc';

$pid_file = proc_test_flag('pid');
$file = escapeshellarg($pid_file);
register_shutdown_function(function () use ($pid_file) {
    $pid = (int) file_get_contents($pid_file);
    unlink($pid_file);
    echo 'after the fatal error, the command is gone: ', var_export($pid > 0 && !file_exists("/proc/$pid"), true), "\n";
});
Rapier\run(function () use ($file, $pid_file) {
    Rapier\go(function () use ($file) {
        exec("echo \$\$ > $file.tmp; mv $file.tmp $file; exec sleep 30");
    });
    while (!file_exists($pid_file)) {
        usleep(1000);
    }
    trigger_error('the run ends here', E_USER_ERROR);
});
?>
--EXPECTF--
Fatal error: the run ends here in %s on line %d
after the fatal error, the command is gone: true
