--TEST--
Hostile: clients that close in the middle of a large static file are freed at once; others are served
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
$root = sys_get_temp_dir() . '/rapier-hostile-static-' . getmypid();
mkdir($root);
/* 64 MiB, sparse: sendfile() sends zeros without the disk doing anything. */
$f = fopen("$root/big.bin", 'w');
ftruncate($f, 64 << 20);
fclose($f);
register_shutdown_function(function () use ($root) {
    @unlink("$root/big.bin");
    @rmdir($root);
});
/* A write_timeout far away: only the close itself can free these connections in time. */
$srv = hostile_server(['document_root' => $root, 'write_timeout' => 60]);
$ctl = new HostileControl($srv->port);
$gone = [];
for ($i = 0; $i < 10; $i++) {
    $c = new HttpTestConn($srv->port);
    $c->send("GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n");
    $c->readSome();
    $gone[] = $c;
}
foreach ($gone as $c) {
    $c->close();
}
$stats = $ctl->waitStats(fn($s) => $s['connections'] == 1, 5);
echo "connections left: {$stats['connections']}\n";
$ctl->check('end');
echo $ctl->report(), "\n";
http_report_stop($srv);
?>
--EXPECT--
connections left: 1
control: all answered
exit: 0
