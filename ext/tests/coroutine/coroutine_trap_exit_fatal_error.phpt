--TEST--
Rapier\trap_exit() lets fatal errors through, also memory_limit's, which PHP unwinds the way it unwinds exit()
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit needs Zend\'s allocator, which valgrind and make asan turn off'); ?>
--FILE--
<?php
preg_match('~\s(/\S*/rapier\.so)$~m', file_get_contents('/proc/self/maps'), $so);
$cases = [
    'memory_limit' => 'ini_set("memory_limit", "16M"); $s = str_repeat("x", 64 << 20);',
    'E_USER_ERROR' => 'trigger_error("user fatal", E_USER_ERROR);',
    'exit(4), for contrast' => 'exit(4);',
];
foreach ($cases as $name => $body) {
    $script = '
        register_shutdown_function(fn () => print("shutdown functions run\n"));
        function inside() { ' . $body . ' }
        foreach ([false, true] as $inCoroutine) {
            $call = function () {
                try {
                    Rapier\trap_exit("inside");
                } catch (Rapier\ExitException $e) {
                    echo "trapped: status ", $e->getStatus(), "\n";
                }
            };
            $inCoroutine ? Rapier\run($call) : $call();
        }
        echo "went on\n";';
    $p = proc_open([PHP_BINARY, '-n', '-d', 'extension=' . $so[1], '-d', 'display_errors=stdout', '-r', $script, $name],
        [1 => ['pipe', 'w']], $pipes);
    $out = preg_replace('~ in .* on line \d+~', '', trim(stream_get_contents($pipes[1])));
    echo "-- $name: exit code ", proc_close($p), "\n$out\n";
}
?>
--EXPECT--
-- memory_limit: exit code 255
Fatal error: Allowed memory size of 16777216 bytes exhausted (tried to allocate 67112960 bytes)
shutdown functions run
-- E_USER_ERROR: exit code 255
Fatal error: user fatal
shutdown functions run
-- exit(4), for contrast: exit code 0
trapped: status 4
trapped: status 4
went on
shutdown functions run
