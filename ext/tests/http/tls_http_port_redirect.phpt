--TEST--
HTTPS: http_port adds a plain-HTTP port beside HTTPS whose requests get a 308 to the same path and query over HTTPS (curl -L follows it to the application), on keep-alive connections; ACME challenges under document_root are served there, nothing else; a missing or malformed Host gets a 400; https_redirect names the public port (443 left out of the URL) or, false, lets the application serve plain HTTP too; misuse is refused
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/tls.inc';
$dir = tls_test_files()['dir'];

function redirect_head(int $port, string $raw): string
{
    $r = http_request($port, $raw, 3, str_starts_with($raw, 'HEAD '));
    if ($r === null) {
        return 'no answer';
    }
    return $r['status'] . ' ' . ($r['headers']['location'][0] ?? '-') . ' ' . ($r['headers']['connection'][0] ?? '-');
}

/* Misuse. */
$taken = stream_socket_server('tcp://127.0.0.1:0');
$takenPort = (int) substr(strrchr(stream_socket_get_name($taken, false), ':'), 1);
tls_test_try_start(['http_port' => 8080]);
tls_test_try_start(tls_test_options(['https_redirect' => false]));
tls_test_try_start(tls_test_options(['http_port' => 0]));
tls_test_try_start(tls_test_options(['http_port' => 8080, 'https_redirect' => 'yes']));
tls_test_try_start(tls_test_options(['http_port' => 8080, 'https_redirect' => 70000]));
tls_test_try_start(tls_test_options(['http_port' => $takenPort]));
try {
    new Rapier\Http\Server('127.0.0.1', 8443, tls_test_options(['http_port' => 8443]));
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    new Rapier\Http\Server('127.0.0.1', 0, tls_test_options(['http_port' => 8080]));
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
fclose($taken);

mkdir("$dir/www/.well-known/acme-challenge", 0755, true);
file_put_contents("$dir/www/.well-known/acme-challenge/token-1", "token-1.thumbprint");
file_put_contents("$dir/www/index.txt", "static");
$plain = http_test_free_port();
$handler = 'function ($req, $res) {
    $s = $req->server();
    $res->end($req->method . " " . $req->uri . " over " . (($s["HTTPS"] ?? "") === "on" ? "https" : "http")
        . " port " . $s["SERVER_PORT"] . " body " . strlen($req->body()));
}';
$srv = http_server_start($handler, tls_test_options(['http_port' => $plain, 'document_root' => "$dir/www"]));
$tls = $srv->port;

echo "GET: ", redirect_head($plain, "GET /a/b?x=1&y=%20 HTTP/1.1\r\nHost: localhost:$plain\r\nConnection: close\r\n\r\n"), "\n";
echo "POST: ", redirect_head($plain, "POST /form HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"), "\n";
echo "IPv6 Host: ", redirect_head($plain, "GET / HTTP/1.1\r\nHost: [::1]:$plain\r\nConnection: close\r\n\r\n"), "\n";
echo "HEAD: ", redirect_head($plain, "HEAD /h HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"), "\n";
echo "static file: ", redirect_head($plain, "GET /index.txt HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"), "\n";
echo "missing token: ", redirect_head($plain, "GET /.well-known/acme-challenge/nope HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"), "\n";
$r = http_request($plain, "GET /.well-known/acme-challenge/token-1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
echo "ACME challenge: {$r['status']} {$r['body']}\n";

/* Keep-alive: three redirects on one connection, the last two pipelined. */
$c = new HttpTestConn($plain);
$c->send("GET /one HTTP/1.1\r\nHost: localhost\r\n\r\n");
$one = $c->response();
$c->send("GET /two HTTP/1.1\r\nHost: localhost\r\n\r\nGET /three HTTP/1.1\r\nHost: localhost\r\n\r\n");
$two = $c->response();
$three = $c->response();
echo "keep-alive: ", implode(', ', array_map(fn ($r) => $r['status'] . ' ' . $r['headers']['location'][0] . ' '
    . $r['body'], [$one, $two, $three])), "\n";
$c->close();

foreach (["GET / HTTP/1.0\r\n\r\n", "GET / HTTP/1.1\r\nHost: evil.example/x\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: a\"b\r\n\r\n", "GET / HTTP/1.1\r\nHost: localhost:80x\r\n\r\n"] as $raw) {
    $c = new HttpTestConn($plain);
    $c->send($raw);
    $r = $c->response();
    echo json_encode(strtok($raw, "\r") . ' / ' . (explode("\r\n", $raw)[1] ?? '')), ': ', $r['status'], ' ', trim($r['body']),
        ' closed: ', var_export($c->closedWithin(3), true), "\n";
    $c->close();
}

/* curl follows the redirect to the application, over HTTPS. */
[$rc, $out] = http_curl(['-L', '--cacert', tls_test_files()['cert'], '--resolve', "localhost:$plain:127.0.0.1",
    '--resolve', "localhost:$tls:127.0.0.1", '-d', 'abc', '--post301', "http://localhost:$plain/follow?q=1"]);
echo "curl -L: $rc ", str_replace((string) $tls, 'TLS', $out), "\n";
[$rc, $out] = tls_curl($tls, '/direct');
echo "HTTPS port: $rc ", str_replace((string) $tls, 'TLS', $out), "\n";

echo 'exit: ', $srv->stop()['code'], "\n";

/* https_redirect: the port clients reach HTTPS on (443: none in the URL), or false to serve plain HTTP too. */
$plain = http_test_free_port();
$srv = http_server_start($handler, tls_test_options(['http_port' => $plain, 'https_redirect' => 443]));
echo "public 443: ", redirect_head($plain, "GET /x HTTP/1.1\r\nHost: example.com:8080\r\nConnection: close\r\n\r\n"), "\n";
echo 'exit: ', $srv->stop()['code'], "\n";
$plain = http_test_free_port();
$srv = http_server_start($handler, tls_test_options(['http_port' => $plain, 'https_redirect' => false]));
$r = http_get($plain, '/plain');
echo "served plain: {$r['status']} ", str_replace((string) $plain, 'PLAIN', $r['body']), "\n";
[$rc, $out] = tls_curl($srv->port, '/secure');
echo "and HTTPS: $rc ", str_replace((string) $srv->port, 'TLS', $out), "\n";
echo 'exit: ', $srv->stop()['code'], "\n";
?>
--EXPECTF--
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "http_port" needs "tls_cert_file": it adds a plain-HTTP port beside HTTPS (for plain HTTP alone, give the port as the constructor's port)
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "https_redirect" needs "http_port": it says what the plain-HTTP port does
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "http_port" must be an integer between 1 and 65535
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "https_redirect" must be a bool or a port number between 1 and 65535
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "https_redirect" must be a bool or a port number between 1 and 65535
Rapier\Exception: Cannot listen on 127.0.0.1:%d (http_port): Address already in use
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "http_port" must differ from the server's port 8443, which speaks HTTPS
ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "https_redirect" must name the HTTPS port clients reach, or be false, when the server's port is 0 (any free port)
GET: 308 https://localhost:%d/a/b?x=1&y=%20 close
POST: 308 https://127.0.0.1:%d/form close
IPv6 Host: 308 https://[::1]:%d/ close
HEAD: 308 https://localhost:%d/h close
static file: 308 https://localhost:%d/index.txt close
missing token: 308 https://localhost:%d/.well-known/acme-challenge/nope close
ACME challenge: 200 token-1.thumbprint
keep-alive: 308 https://localhost:%d/one 308 Permanent Redirect: this site is served over HTTPS
, 308 https://localhost:%d/two 308 Permanent Redirect: this site is served over HTTPS
, 308 https://localhost:%d/three 308 Permanent Redirect: this site is served over HTTPS

"GET \/ HTTP\/1.0 \/ ": 400 400 Bad Request: a Host header naming the site is needed to redirect to HTTPS closed: true
"GET \/ HTTP\/1.1 \/ Host: evil.example\/x": 400 400 Bad Request: a Host header naming the site is needed to redirect to HTTPS closed: true
"GET \/ HTTP\/1.1 \/ Host: a\"b": 400 400 Bad Request: a Host header naming the site is needed to redirect to HTTPS closed: true
"GET \/ HTTP\/1.1 \/ Host: localhost:80x": 400 400 Bad Request: a Host header naming the site is needed to redirect to HTTPS closed: true
curl -L: 0 POST /follow?q=1 over https port TLS body 3
HTTPS port: 0 GET /direct over https port TLS body 0
exit: 0
public 443: 308 https://example.com/x close
exit: 0
served plain: 200 GET /plain over http port PLAIN body 0
and HTTPS: 0 GET /secure over https port TLS body 0
exit: 0
