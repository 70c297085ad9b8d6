--TEST--
HTTP: the query string is parsed as PHP parses $_GET (arrays, decoding, name mangling)
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->json(["query" => $req->query, "path" => $req->path, "uri" => $req->uri]); }');
$qs = 'a[]=1&a[]=2&b[k][]=v&c=%C3%A9+x&d.e=1&f&g=1&g=2';
$r = http_get($srv->port, "/p%20q?$qs");
$got = json_decode($r['body'], true);
parse_str($qs, $expected);
var_dump($got['query'] === $expected);
echo json_encode($got['query']), "\n", $got['path'], "\n", $got['uri'], "\n";
$r = http_get($srv->port, "/none");
echo $r['body'], "\n";
http_report_stop($srv);
?>
--EXPECT--
bool(true)
{"a":["1","2"],"b":{"k":["v"]},"c":"\u00e9 x","d_e":"1","f":"","g":"2"}
/p q
/p%20q?a[]=1&a[]=2&b[k][]=v&c=%C3%A9+x&d.e=1&f&g=1&g=2
{"query":[],"path":"\/none","uri":"\/none"}
exit: 0
