--TEST--
HTTPS workers: http_port's socket is the master's and every request worker accepts from it: both workers answer there, and it is served without a refused connection across a worker's kill -9 and a reload, while the HTTPS port serves on
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip four worker starts take long under valgrind; tls_http_port_redirect runs the plain listener there, and the ASan stage runs this one'); ?>
--FILE--
<?php
require __DIR__ . '/tls.inc';
require __DIR__ . '/workers.inc';

/* The plain port serves the application here, so that each answer names the worker that accepted it. */
$plain = http_test_free_port();
$srv = http_server_start('function ($req, $res) {
    $res->end(getmypid() . " " . (($req->server()["HTTPS"] ?? "") === "on" ? "https" : "http"));
}', tls_test_options(['workers' => 2, 'http_port' => $plain, 'https_redirect' => false]),
    'function on_worker_start($server, $id) { echo "pid " . getmypid() . "\n"; }');
$m = [];
http_test_poll(function () use ($srv, &$m) {
    return preg_match_all('/^pid (\d+)$/m', $srv->output(), $m) >= 2;
}, 10);
if (count($m[1] ?? []) < 2) {
    die("the workers did not report their pids:\n" . $srv->output());
}
$workers = array_map('intval', $m[1]);

/* Each connection is accepted by whichever worker wakes first: both do, over enough of them. */
$seen = [];
for ($i = 0; $i < 200 && count($seen) < 2; $i++) {
    $r = http_get($plain, '/');
    $seen[(int) explode(' ', $r['body'])[0]] = true;
}
ksort($seen);
$expected = $workers;
sort($expected);
echo 'both workers accept on http_port: ', var_export(array_keys($seen) === $expected, true), "\n";

function served(int $plain, int $n, float $pause = 0): string
{
    $ok = 0;
    for ($i = 0; $i < $n; $i++) {
        $r = http_get($plain, '/');
        $ok += ($r !== null && $r['status'] === 200 && str_ends_with($r['body'], ' http')) ? 1 : 0;
        usleep((int) ($pause * 1e6));
    }
    return "$ok of $n";
}

workers_kill($workers[0], 9);
echo 'after a kill -9: ', served($plain, 20), " served\n";
$srv->signal(SIGUSR1);
echo 'across a reload: ', served($plain, 40, 0.02), " served\n";
[$rc, $out] = tls_curl($srv->port, '/');
echo 'HTTPS port: ', $rc, ' ', preg_replace('/^\d+/', 'PID', $out), "\n";
echo 'exit: ', $srv->stop()['code'], "\n";
?>
--EXPECT--
both workers accept on http_port: true
after a kill -9: 20 of 20 served
across a reload: 40 of 40 served
HTTPS port: 0 PID https
exit: 0
