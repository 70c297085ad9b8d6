--TEST--
ProcessState: the default stream context goes back to boot's options, in place: a request's stream_context_set_default() turning certificate checks off does not reach the next request's HTTPS calls
--EXTENSIONS--
rapier
openssl
--FILE--
<?php
require __DIR__ . '/../http/server.inc';
require __DIR__ . '/../http/tls.inc';
$srv = http_server_start('function ($req, $res) { $res->end("hello " . ($req->headers["user-agent"] ?? "-")); }', tls_test_options());
$url = "https://127.0.0.1:{$srv->port}/";
$get = function () use ($url): string {
    $warnings = '';
    set_error_handler(function (int $no, string $message) use (&$warnings): bool {
        $warnings .= "$message\n";
        return true;
    });
    $body = file_get_contents($url);
    restore_error_handler();
    return $body === false ? 'refused: ' . (str_contains($warnings, 'certificate verify failed') ? 'certificate' : $warnings) : $body;
};

// Boot sets an option every request keeps, and holds the context.
stream_context_set_default(['http' => ['user_agent' => 'boot-agent']]);
$boot = stream_context_get_default();
$state = Rapier\ProcessState::capture();
echo "boot: ", $get(), "\n";

// A request talks to a host with a self-signed certificate the quick way.
stream_context_set_default(['ssl' => ['verify_peer' => false, 'verify_peer_name' => false]]);
stream_context_set_params(stream_context_get_default(), ['notification' => function () {}]);
echo "request: ", $get(), "\n";
print_r($state->restore());
echo "next request: ", $get(), "\n";
var_dump(stream_context_get_options(stream_context_get_default()) === ['http' => ['user_agent' => 'boot-agent']]);
var_dump(stream_context_get_params(stream_context_get_default())['notification'] ?? 'no notifier');
var_dump(stream_context_get_default() === $boot);
var_dump($state->restore());
http_report_stop($srv);
?>
--EXPECT--
boot: refused: certificate
request: hello boot-agent
Array
(
    [0] => stream_context_default
)
next request: refused: certificate
bool(true)
string(11) "no notifier"
bool(true)
array(0) {
}
exit: 0
