--TEST--
HTTPS: each worker loads the certificate when it starts, so a reload serves a renewed one without a failed request; a reload with a broken certificate file is abandoned and the old workers serve on
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/tls.inc';
require __DIR__ . '/workers.inc';
$dir = tls_test_files()['dir'];
tls_test_make_certificate("$dir/old.pem", "$dir/old.key", 'old.localhost');
tls_test_make_certificate("$dir/new.pem", "$dir/new.key", 'new.localhost');
copy("$dir/old.pem", "$dir/live.pem");
copy("$dir/old.key", "$dir/live.key");

$srv = new WorkersTestServer('function ($req, $res) { $res->end("pid " . getmypid()); }',
    ['workers' => 1, 'tls_cert_file' => "$dir/live.pem", 'tls_key_file' => "$dir/live.key"]);
echo 'served: ', tls_test_served_subject($srv->port), "\n";

/* A broken file: the new worker cannot start, the reload is abandoned. */
file_put_contents("$dir/live.pem", "-----BEGIN CERTIFICATE-----\nbroken\n-----END CERTIFICATE-----\n");
workers_kill($srv->masterPid, SIGUSR1);
$st = $srv->waitStatus(fn ($st) => ($st['reload_failures'] ?? 0) >= 1, 10, 'the reload to fail');
echo "reload_failures: {$st['reload_failures']}\n";
[$rc, $out] = http_curl(['--cacert', "$dir/old.pem", '--resolve', "localhost:{$srv->port}:127.0.0.1",
    "https://localhost:{$srv->port}/"]);
echo 'still served with the old certificate: ', $rc, ' ', var_export(str_starts_with($out, 'pid '), true), "\n";

/* The renewed certificate: served by the next generation. */
copy("$dir/new.pem", "$dir/live.pem");
copy("$dir/new.key", "$dir/live.key");
$srv->reload(1);
echo 'served: ', tls_test_served_subject($srv->port), "\n";
[$rc, $out] = http_curl(['--cacert', "$dir/new.pem", '--resolve', "localhost:{$srv->port}:127.0.0.1",
    "https://localhost:{$srv->port}/"]);
echo 'trusted with the new certificate: ', $rc, ' ', var_export(str_starts_with($out, 'pid '), true), "\n";
$r = $srv->stop();
workers_report_stop($r);
echo 'the failure was logged: ', var_export(str_contains($r['err'], 'Cannot serve HTTPS: tls_cert_file')
    && str_contains($r['err'], 'reload of workers failed'), true), "\n";
?>
--EXPECT--
served: CN = old.localhost
reload_failures: 1
still served with the old certificate: 0 true
served: CN = new.localhost
trusted with the new certificate: 0 true
exit: 0
leftover processes: none
the failure was logged: true
