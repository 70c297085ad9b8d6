--TEST--
HTTP: Response::status() sets the status line, with the standard or a custom reason
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) {
    $q = $req->query;
    try {
        isset($q["reason"]) ? $res->status((int) $q["s"], $q["reason"]) : $res->status((int) $q["s"]);
    } catch (ValueError $e) {
        $res->status(400);
        $res->end(get_class($e) . ": " . $e->getMessage());
        return;
    }
    $res->end("body");
}');
foreach (['s=201', 's=404', 's=418&reason=Short+And+Stout', 's=299', 's=204', 's=200&reason=bad%0D%0Areason'] as $q) {
    $r = http_get($srv->port, "/?$q");
    echo "$q => {$r['status']} [{$r['reason']}] ", $r['body'] === '' ? '(no body)' : $r['body'], "\n";
}
http_report_stop($srv);
?>
--EXPECT--
s=201 => 201 [Created] body
s=404 => 404 [Not Found] body
s=418&reason=Short+And+Stout => 418 [Short And Stout] body
s=299 => 299 [] body
s=204 => 204 [No Content] (no body)
s=200&reason=bad%0D%0Areason => 400 [Bad Request] ValueError: Rapier\Http\Response::status(): Argument #2 ($reason) must be at most 64 printable characters
exit: 0
