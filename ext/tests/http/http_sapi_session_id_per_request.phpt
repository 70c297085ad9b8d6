--TEST--
HTTP: each request starts with no session id, as under php-fpm: a client without a session cookie never gets the previous client's session
--EXTENSIONS--
rapier
session
--FILE--
<?php
require __DIR__ . '/server.inc';
$dir = sys_get_temp_dir() . '/rapier-sessions-' . getmypid();
mkdir($dir);
$srv = http_server_start('function ($req, $res) {
    $_COOKIE = $req->cookies;
    session_start();
    $_SESSION["n"] = ($_SESSION["n"] ?? 0) + 1;
    $out = ["id" => session_id(), "n" => $_SESSION["n"]];
    session_write_close();
    $_COOKIE = [];
    $res->json($out);
}', [], '', '', ['session.save_path' => $dir, 'session.use_strict_mode' => '0']);
$get = function (?string $id) use ($srv) {
    $r = http_get($srv->port, '/', $id ? ["Cookie: PHPSESSID=$id"] : []);
    return json_decode($r['body'], true);
};
$a1 = $get(null);
$a2 = $get($a1['id']);
$b1 = $get(null);
$a3 = $get($a1['id']);
echo "client A: {$a1['n']} {$a2['n']} {$a3['n']}, same id: ", var_export($a1['id'] === $a2['id'] && $a2['id'] === $a3['id'], true), "\n";
echo "client B: {$b1['n']}, its own id: ", var_export($b1['id'] !== $a1['id'], true), "\n";
http_report_stop($srv);
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
client A: 1 2 3, same id: true
client B: 1, its own id: true
exit: 0
