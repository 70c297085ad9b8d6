--TEST--
HTTP/2: a fatal error in a handler ends its worker; that stream and another in flight on the same connection each get a 500, the connection a GOAWAY INTERNAL_ERROR and a close; the master replaces the worker, which serves HTTP/2
--EXTENSIONS--
rapier
--XLEAK--
A worker ends in a fatal error: its bailout leaves what PHP and the worker's C frames held unfreed, as a fatal error does in stock PHP (under make asan, the --ENV-- turns LeakSanitizer off for the same reason).
--ENV--
LSAN_OPTIONS=detect_leaks=0
--SKIPIF--
<?php if (trim((string) shell_exec('curl -V 2>/dev/null | grep -c HTTP2')) !== '1') die('skip curl without HTTP/2');
--FILE--
<?php
require __DIR__ . '/workers_fatal_h2.inc';
h2_worker_fatal_case('/fatal', 'the handler gave up');
?>
--EXPECT--
/fatal: 500 Internal Server Error: the worker failed and is being replaced, stream ended: true
/slow, in flight beside it: 500 Internal Server Error: the worker failed and is being replaced, stream ended: true
GOAWAY last 3 code 2
closed: true
the replacement serves HTTP/2: true, restarts: 1
exit: 0
leftover processes: none
logged: true
