--TEST--
Hostile: a client that never reads a large static file is freed after write_timeout; others are served meanwhile
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
$srv = hostile_server(['document_root' => $root, 'write_timeout' => 1]);
$ctl = new HostileControl($srv->port);
$c = new HttpTestConn($srv->port);
$c->send("GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n");
echo strtok($c->readSome(), "\r"), "\n";
/* The client stops reading; sendfile() fills the socket, and the server must give up after write_timeout. */
$ctl->check('while stuck');
$stats = $ctl->waitStats(fn($s) => $s['connections'] == 1, 6);
echo "connections left: {$stats['connections']}\n";
$ctl->check('end');
echo $ctl->report(), "\n";
http_report_stop($srv);
?>
--EXPECT--
HTTP/1.1 200 OK
connections left: 1
control: all answered
exit: 0
