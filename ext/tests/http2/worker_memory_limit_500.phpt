--TEST--
HTTP/2: a handler that exhausts memory_limit ends its worker; that stream and another in flight on the same connection each get a 500, the connection a GOAWAY INTERNAL_ERROR and a close; the master replaces the worker, which serves HTTP/2
--EXTENSIONS--
rapier
--SKIPIF--
<?php
if (getenv('USE_ZEND_ALLOC') === '0') die('skip memory_limit needs Zend\'s allocator, which valgrind and make asan turn off');
if (trim((string) shell_exec('curl -V 2>/dev/null | grep -c HTTP2')) !== '1') die('skip curl without HTTP/2');
--FILE--
<?php
require __DIR__ . '/workers_fatal_h2.inc';
h2_worker_fatal_case('/memory', 'Allowed memory size of 16777216 bytes exhausted');
?>
--EXPECT--
/memory: 500 Internal Server Error: the worker failed and is being replaced, stream ended: true
/slow, in flight beside it: 500 Internal Server Error: the worker failed and is being replaced, stream ended: true
GOAWAY last 3 code 2
closed: true
the replacement serves HTTP/2: true, restarts: 1
exit: 0
leftover processes: none
logged: true
