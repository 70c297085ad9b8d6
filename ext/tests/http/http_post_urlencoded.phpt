--TEST--
HTTP: an urlencoded body fills Request::$post as PHP fills $_POST
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/server.inc';
$srv = http_server_start('function ($req, $res) { $res->end(var_export($req->post, true) . "\n" . $req->body()); }');
$body = 'a=1&b[]=2&b[]=3&c[x][y]=z&d+e=f%20g&h.i=j&empty=';
$r = http_request($srv->port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded; charset=UTF-8\r\n"
    . "Content-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n$body");
echo $r['body'], "\n";
parse_str($body, $expected);
var_dump(var_export($expected, true) . "\n" . $body === $r['body']);
/* Another content type leaves post empty but the raw body available. */
$r = http_request($srv->port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\na=1");
echo $r['body'], "\n";
http_report_stop($srv);
?>
--EXPECT--
array (
  'a' => '1',
  'b' => 
  array (
    0 => '2',
    1 => '3',
  ),
  'c' => 
  array (
    'x' => 
    array (
      'y' => 'z',
    ),
  ),
  'd_e' => 'f g',
  'h_i' => 'j',
  'empty' => '',
)
a=1&b[]=2&b[]=3&c[x][y]=z&d+e=f%20g&h.i=j&empty=
bool(true)
array (
)
a=1
exit: 0
