--TEST--
Hostile: hostile and random Cookie headers give the same cookies array as PHP's own $_COOKIE (the built-in web server as reference)
--EXTENSIONS--
rapier
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; if (rapier_test_under_valgrind()) die('skip the reference server (php -S) would run under valgrind too and is stopped with a signal, which valgrind reports as leaks; the cookie code runs under valgrind in http_request_cookies'); ?>
--FILE--
<?php
require __DIR__ . '/hostile.inc';
/*
 * docs/http-server.md promises cookies "as PHP fills $_COOKIE". PHP's own
 * parsing (treat_data with PARSE_COOKIE) is not callable from PHP code, so
 * the reference is PHP's built-in web server (php -S), given the same
 * header byte for byte. Spaces and tabs around names and values are left
 * out: Rapier trims them on purpose (docs/http-parsing.md, Cookie pairs),
 * where PHP keeps them in the value and mangles a trailing one in a name.
 */
$router = tempnam(sys_get_temp_dir(), 'rapier-cookie-ref-');
file_put_contents($router, '<?php echo base64_encode(serialize($_COOKIE));');
$refPort = http_test_free_port();
$ref = proc_open([PHP_BINARY, '-n', '-S', "127.0.0.1:$refPort", $router], [['pipe', 'r'], ['file', '/dev/null', 'w'],
    ['file', '/dev/null', 'w']], $pipes);
register_shutdown_function(function () use ($ref, $router) {
    proc_terminate($ref);
    proc_close($ref);
    unlink($router);
});
for ($deadline = microtime(true) + http_test_timeout(5); !($s = @stream_socket_client("tcp://127.0.0.1:$refPort"))
        && microtime(true) < $deadline;) {
    usleep(20000);
}
$srv = http_server_start('function ($req, $res) {
    if ($req->path === "/ok") {
        $res->end("ok " . ($req->query["n"] ?? ""));
        return;
    }
    $res->end(base64_encode(serialize($req->cookies)));
}', HOSTILE_KEEPALIVE);
$ctl = new HostileControl($srv->port);
$cookies = [
    'session=YWJj+ZGVm/Z2hp==; plus=1+2',
    'a=%41%2B%2b; b=%zz%4; c=%00; d=%',
    'c.d=1; e f=2; g[x]=1; g[y]=2; g[]=3; h[=4; i]=5',
    'dup=1; dup=2; DUP=3; dup[x]=4',
    '%41=3; i==x; ==; =; ;;; j; k=" q "; l="a;b"',
    "o=\x80\xff; \xfe=1",
    'p' . str_repeat('[q]', 80) . '=deep',
];
mt_srand(11);
$tokens = ['a', 'b', '1', '=', ';', '; ', '%', '%41', '%2B', '+', '[', ']', '.', '"', ',', "\x80", '%00', '%3B', '%20'];
for ($i = 0; $i < 200; $i++) {
    $c = '';
    for ($n = mt_rand(1, 30); $n > 0; $n--) {
        $c .= $tokens[mt_rand(0, count($tokens) - 1)];
    }
    $cookies[] = $c;
}
$wrong = [];
foreach ($cookies as $i => $cookie) {
    $request = "GET / HTTP/1.1\r\nHost: x\r\nCookie: $cookie\r\nConnection: close\r\n\r\n";
    $got = http_request($srv->port, $request);
    $want = http_request($refPort, $request);
    if ($got === null || $want === null || $got['body'] !== $want['body']) {
        $wrong[$i] = [$cookie, $got ? unserialize(base64_decode($got['body'])) : null,
            $want ? unserialize(base64_decode($want['body'])) : null];
    }
}
echo count($cookies), " Cookie headers, parsed differently: ", count($wrong), "\n";
if ($wrong) {
    [$cookie, $got, $want] = reset($wrong);
    echo "first: ", json_encode($cookie), "\n  rapier: ", json_encode($got), "\n  php:    ", json_encode($want), "\n";
}
$ctl->check('end');
echo $ctl->report(), "\n";
http_report_stop($srv);
?>
--EXPECT--
207 Cookie headers, parsed differently: 0
control: all answered
exit: 0
