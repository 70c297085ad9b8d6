--TEST--
ProcessState: a memory_limit that cannot go back while the memory is held stays, silently, and goes back later
--EXTENSIONS--
rapier
--SKIPIF--
<?php
// Zend's allocator keeps the count memory_limit is checked against; with
// USE_ZEND_ALLOC=0 (valgrind, ASan) every limit can be set at any time.
if (getenv('USE_ZEND_ALLOC') === '0') die('skip needs the Zend allocator');
?>
--INI--
memory_limit=128M
--FILE--
<?php
// Boot's handler stays; it must not see restore()'s warnings.
set_error_handler(function (int $no, string $msg) {
    echo "handler: $msg\n";
    return true;
});
$state = Rapier\ProcessState::capture();

ini_set('memory_limit', '-1');
$held = str_repeat('x', 160 * 1024 * 1024);
var_dump($state->restore(), ini_get('memory_limit'));
unset($held);
print_r($state->restore());
var_dump(ini_get('memory_limit'));
?>
--EXPECT--
array(0) {
}
string(2) "-1"
Array
(
    [0] => ini:memory_limit
)
string(4) "128M"
