--TEST--
Hostile: hostile and random query strings and urlencoded bodies parse exactly as PHP's parse_str() reads what the client sent
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/hostile.inc';
/*
 * Query strings and urlencoded bodies go through PHP's own treat_data inside
 * the server (it cannot be fuzzed without PHP, see docs/reliability.md), so
 * they are checked here, end to end: what the handler sees must be what
 * parse_str() makes of the bytes the client sent, and the server must live.
 */
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/ok") {
        $res->end("ok " . ($req->query["n"] ?? ""));
        return;
    }
    $res->end(base64_encode(serialize([$req->query, $req->post])));
}', HOSTILE_KEEPALIVE);
$ctl = new HostileControl($srv->port);
$queries = [
    'a[]=1&a[]=2&a[x][y]=3&a[0]=4',
    'a' . str_repeat('[b]', 100) . '=deeper+than+max_input_nesting_level',
    'a[=1&b]=2&c[d=3&[]=4&=5&&&[=6&]=7',
    '%00=1&a%00b=2&c=%00&d[%00]=3',
    'a.b=1&a%20b=2&a+b=3&a[b.c]=4&.=5',
    '%zz=%4&%=%%&%2=%2G',
    '%ff%fe=%c3%28&' . "\xff\xfe=\xc3\x28",
    'a[0x1]=1&a[01]=2&a[-1]=3&a[9223372036854775808]=4&a[%201]=5',
    'x=' . str_repeat('%41', 2000),
    /* More than max_input_vars (1000), within the 8 KiB target limit. */
    implode('&', array_map(fn($i) => "$i=", range(1, 1100))),
];
/* Random ones from a fixed seed: the same bytes on every run. */
mt_srand(6);
$tokens = ['a', 'b', '0', '9', '[', ']', '=', '&', '%', '%00', '%5B', '%5D', '%3D', '%26', '.', '+', '_', ';', "\x80", "\xff"];
for ($i = 0; $i < 300; $i++) {
    $q = '';
    for ($n = mt_rand(1, 40); $n > 0; $n--) {
        $q .= $tokens[mt_rand(0, count($tokens) - 1)];
    }
    $queries[] = $q;
}
$wrong = [];
foreach ($queries as $i => $q) {
    /* The same bytes as the query string and as the body, with a fragment the server must cut off. */
    $r = http_request($srv->port, "POST /p?$q#frag HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        . "Content-Length: " . strlen($q) . "\r\nConnection: close\r\n\r\n$q");
    @parse_str($q, $expected);
    if ($r === null || $r['status'] !== 200 || unserialize(base64_decode($r['body'])) !== [$expected, $expected]) {
        $wrong[] = $i;
    }
}
echo count($queries), " query strings and bodies, parsed differently: ", json_encode($wrong), "\n";
$ctl->check('end');
echo $ctl->report(), "\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n";
echo "max_input_vars warning logged: ", var_export(str_contains($r['err'], 'Input variables exceeded 1000'), true), "\n";
?>
--EXPECT--
310 query strings and bodies, parsed differently: []
control: all answered
exit: 0
max_input_vars warning logged: true
