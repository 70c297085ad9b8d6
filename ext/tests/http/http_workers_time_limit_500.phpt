--TEST--
HTTP workers: a handler that exhausts max_execution_time gets a 500, so does every request in flight on that worker; the master replaces the worker and serving goes on
--EXTENSIONS--
rapier
--XLEAK--
A worker ends in max_execution_time's fatal error: its bailout leaves what PHP and the worker's C frames held unfreed, as a fatal error does in stock PHP (under make asan, the --ENV-- turns LeakSanitizer off for the same reason).
--ENV--
LSAN_OPTIONS=detect_leaks=0
--FILE--
<?php
/* The worker ends in a fatal error, which leaves its request's memory unfreed as in
 * stock PHP (see coroutine_fatal_error_ends_script): LeakSanitizer is off (--ENV--). */
require __DIR__ . '/workers_fatal.inc';
workers_fatal_error_case('/time', 'Maximum execution time of 1 second exceeded');
?>
--EXPECT--
/time: 500 500 Internal Server Error: the worker failed and is being replaced, closed: true
  the request in flight beside it: 500
  the replacement serves: true, restarts: 1
exit: 0
leftover processes: none
logged: true
