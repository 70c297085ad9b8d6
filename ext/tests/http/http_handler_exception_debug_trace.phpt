--TEST--
HTTP: with debug on, the 500 for an uncaught exception carries the exception and its trace
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { helper_that_throws(); }', ['debug' => true],
    'function helper_that_throws() { throw new DomainException("debug detail"); }');
$r = http_get($srv->port, '/');
echo $r['status'], "\n";
echo preg_replace('~/tmp/rapier-http-test-\w+~', 'SCRIPT', $r['body']), "\n";
http_report_stop($srv);
?>
--EXPECTF--
500
DomainException: debug detail in SCRIPT:2
Stack trace:
#0 SCRIPT(%d): helper_that_throws()
#1 [internal function]: {closure}(Object(Rapier\Http\Request), Object(Rapier\Http\Response))
%A
exit: 0
stderr:
DomainException: debug detail in %s
%A
