--TEST--
HTTP workers: a handler that exhausts memory_limit gets a 500, so does every request in flight on that worker; the master replaces the worker and serving goes on
--EXTENSIONS--
rapier
--SKIPIF--
<?php if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit needs Zend\'s allocator, which valgrind and make asan turn off'); ?>
--FILE--
<?php
require __DIR__ . '/workers_fatal.inc';
workers_fatal_error_case('/memory', 'Allowed memory size of 16777216 bytes exhausted');
?>
--EXPECT--
/memory: 500 500 Internal Server Error: the worker failed and is being replaced, closed: true
  the request in flight beside it: 500
  the replacement serves: true, restarts: 1
exit: 0
leftover processes: none
logged: true
