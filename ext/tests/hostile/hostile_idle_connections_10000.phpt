--TEST--
Hostile: 10,000 idle connections are all accepted and held, others are served meanwhile, and all are closed after read_timeout
--EXTENSIONS--
rapier
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (rapier_test_under_valgrind() || getenv('RAPIER_TEST_SERVER_VALGRIND')) {
    die('skip 10,000 connections: far too slow under valgrind');
}
/* The test and the server (which inherits the limit) each need 10,000 descriptors and some spare. */
if (!preg_match('~^Max open files\s+(\d+)\s+(\d+|unlimited)~m', (string) @file_get_contents('/proc/self/limits'), $m)) {
    die('skip cannot read the descriptor limit from /proc/self/limits');
}
if ($m[2] !== 'unlimited' && (int) $m[2] < 10240) {
    die("skip the hard limit on open files is $m[2]; 10,240 are needed (ulimit -Hn)");
}
if ((int) $m[1] < 10240 && trim((string) shell_exec('command -v prlimit')) === '') {
    die("skip the soft limit on open files is $m[1] and prlimit (util-linux) is not there to raise it");
}
?>
--FILE--
<?php
require __DIR__ . '/hostile.inc';
const IDLE = 10000;
/*
 * Raises this process's soft limit (the server child inherits it) with
 * util-linux prlimit: the posix extension, which could do it in PHP, is not
 * loaded under run-tests.php -n.
 */
function raise_nofile(int $want): string
{
    preg_match('~^Max open files\s+(\d+)\s+(\d+|unlimited)~m', file_get_contents('/proc/self/limits'), $m);
    if ((int) $m[1] >= $want) {
        return 'enough';
    }
    $hard = $m[2] === 'unlimited' ? $want : min($want, (int) $m[2]);
    exec(sprintf('prlimit --pid %d --nofile=%d:%s 2>&1', getmypid(), $hard, $m[2]), $out, $rc);
    preg_match('~^Max open files\s+(\d+)~m', file_get_contents('/proc/self/limits'), $m);
    return (int) $m[1] >= $want ? 'raised' : 'cannot raise: ' . implode(' ', $out);
}
$limit = raise_nofile(IDLE + 240);
echo "descriptor limit: ", str_starts_with($limit, 'cannot') ? $limit : 'enough', "\n";
/*
 * Long enough to open them all (under a second here; over 5 s under ASan on a
 * busy machine, when the first ones would be closed before the last are
 * open), short enough to wait for.
 */
$srv = hostile_server(['read_timeout' => http_test_timeout(5)]);
$ctl = new HostileControl($srv->port);
/* Kept non-blocking and never selected on: PHP's stream_select() cannot watch descriptors above 1024. */
$idle = [];
$failed = 0;
for ($i = 0; $i < IDLE; $i++) {
    $s = @stream_socket_client("tcp://127.0.0.1:{$srv->port}", $errno, $errstr, 5);
    if ($s === false) {
        $failed++;
        continue;
    }
    stream_set_blocking($s, false);
    $idle[] = $s;
    if ($i % 2500 === 2499) {
        $ctl->check("after $i connections");
    }
}
echo "opened: ", count($idle), ", failed: $failed\n";
/* All accepted: the server holds every one of them (plus the control connection). */
$deadline = microtime(true) + http_test_timeout(10);
do {
    $stats = $ctl->stats();
} while ($stats['connections'] < IDLE + 1 && microtime(true) < $deadline && usleep(100000) === null);
echo "server connections >= ", IDLE + 1, ": ", var_export($stats['connections'] >= IDLE + 1, true), "\n";
$ctl->check('all open');
/* None sent a byte: each is closed silently once read_timeout has passed. */
$deadline = microtime(true) + http_test_timeout(15);
$open = $idle;
$answered = 0;
while ($open && microtime(true) < $deadline) {
    foreach ($open as $k => $s) {
        $data = fread($s, 4096);
        if ($data !== '' && $data !== false) {
            $answered++;
        }
        if ($data === false || feof($s)) {
            fclose($s);
            unset($open[$k]);
        }
    }
    usleep(200000);
}
echo "closed by the server: ", count($idle) - count($open), ", with an answer: $answered\n";
$stats = $ctl->stats();
echo "server connections left: {$stats['connections']}\n";
$ctl->check('end');
echo $ctl->report(), "\n";
http_report_stop($srv);
?>
--EXPECT--
descriptor limit: enough
opened: 10000, failed: 0
server connections >= 10001: true
closed by the server: 10000, with an answer: 0
server connections left: 1
control: all answered
exit: 0
