<?php

declare(strict_types=1);

namespace Rapier\Tests\Deploy;

use PHPUnit\Framework\TestCase;
use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpResponse;
use Rapier\Tests\Support\ServedApp;
use RuntimeException;

/**
 * deploy/nginx.conf as shipped, run by real nginx (in the foreground, with
 * its own prefix and logs in a temporary directory) in front of a real
 * `rapier serve` with one worker. The site file is included in an http
 * block written here; only its four documented lines (listen, server_name,
 * root, upstream server) are replaced. The app logs every request it sees
 * and answers with what reached it.
 */
final class NginxFrontTest extends TestCase
{
    private const NGINX = '/usr/sbin/nginx';

    private string $dir;
    private int $nginxPort;
    private int $appPort;
    private ?ServedApp $rapier = null;
    private ?ServedApp $nginx = null;

    protected function setUp(): void
    {
        if (!is_executable(self::NGINX)) {
            $this->markTestSkipped('nginx is not installed (scripts/install-deps.sh installs it)');
        }
        $this->dir = Cli::tempDirectory();
        chmod($this->dir, 0755);
        $this->writeApp();
        $this->appPort = Cli::freePort();
        $this->rapier = Cli::serve(["$this->dir/app.php", '--port', (string) $this->appPort, '--workers', '1']);
        $this->rapier->waitForWorkers("$this->dir/.rapier.pid", 1);
        $this->nginxPort = Cli::freePort();
        $this->nginx = $this->startNginx($this->appPort);
    }

    protected function tearDown(): void
    {
        $this->nginx?->stop();
        $this->nginx = null;
        $this->rapier?->stop();
        $this->rapier = null;
        Cli::removeDirectory($this->dir);
    }

    public function testAppResponsesComeThroughNginx(): void
    {
        $response = $this->request('GET', '/hello?name=x', ['Host' => 'shop.example:8000']);

        $this->assertSame(200, $response->status, $this->logs());
        $body = $response->json();
        $this->assertSame('/hello', $body['path']);
        $this->assertSame('shop.example', $body['host'], 'the name the client asked for ($host), not the upstream\'s');
        $this->assertSame('127.0.0.1', $body['remote_address'], 'Rapier is connected to by nginx');
        $this->assertSame(['GET /hello'], $this->appSaw());
    }

    public function testStaticFilesAreServedByNginxAlone(): void
    {
        $css = $this->request('GET', '/css/site.css');
        $php = $this->request('GET', '/index.php');
        $dotfile = $this->request('GET', '/.env');
        $this->request('GET', '/after');

        $this->assertSame(200, $css->status, $this->logs());
        $this->assertSame('body { color: red; }', $css->body);
        $this->assertStringStartsWith('text/css', (string) $css->header('content-type'));
        $this->assertNotNull($css->header('expires'), 'assets get cache headers');
        $this->assertSame(200, $php->status);
        $this->assertSame('/index.php', $php->json()['path'], 'a PHP file goes to the app, its source is never sent');
        $this->assertSame(403, $dotfile->status, 'dot files are refused');
        $this->assertSame(['GET /index.php', 'GET /after'], $this->appSaw(), 'the app never saw the CSS file or .env');
    }

    public function testTheClientAddressReachesTheApp(): void
    {
        // The client connects from 127.0.0.2 (all of 127/8 is loopback), so
        // its address differs from nginx's own connection to Rapier.
        $response = $this->request('GET', '/ip', [
            'X-Real-IP' => '6.6.6.6',
            'X-Forwarded-For' => '203.0.113.9',
        ], '', '127.0.0.2');

        $body = $response->json();
        $this->assertSame('127.0.0.1', $body['remote_address']);
        $this->assertSame('127.0.0.2', $body['x-real-ip'], 'overwritten: a client cannot choose it');
        $this->assertSame('203.0.113.9, 127.0.0.2', $body['x-forwarded-for'], 'the client address appended');
        $this->assertSame('http', $body['x-forwarded-proto']);
        $this->assertSame((string) $this->nginxPort, $body['x-forwarded-port']);
    }

    public function testWithRealIpTheAppSeesTheClientAndSchemeNginxNames(): void
    {
        // As docs/deployment.md advises: nginx (127.0.0.1) trusted to name the client in X-Forwarded-For, and the
        // scheme it came over in X-Forwarded-Proto.
        $this->rapier?->stop();
        file_put_contents("$this->dir/rapier.php", "<?php\nreturn ['server' => ['real_ip_header' => 'X-Forwarded-For', "
            . "'real_scheme_header' => 'X-Forwarded-Proto', 'real_ip_from' => ['127.0.0.1', '::1']]];\n");
        $this->rapier = Cli::serve(["$this->dir/app.php", '--port', (string) $this->appPort, '--workers', '1',
            '--config', "$this->dir/rapier.php"]);
        $this->rapier->waitForWorkers("$this->dir/.rapier.pid", 1);

        $forged = $this->request('GET', '/ip', ['X-Forwarded-For' => '203.0.113.9', 'X-Forwarded-Proto' => 'https'], '',
            '127.0.0.2');
        $plain = $this->request('GET', '/ip', [], '', '127.0.0.3');

        $this->assertSame(200, $forged->status, $this->logs());
        $this->assertSame('203.0.113.9, 127.0.0.2', $forged->json()['x-forwarded-for']);
        $this->assertSame('127.0.0.2', $forged->json()['remote_address'],
            'the address nginx appended, not the one the client claimed before it');
        $this->assertSame('127.0.0.2', $forged->json()['remote_addr_server'], 'REMOTE_ADDR, which frameworks read');
        $this->assertSame('127.0.0.3', $plain->json()['remote_address'], 'each request its own client over one upstream connection');
        $this->assertSame('http', $forged->json()['request_scheme'],
            'the scheme nginx says (plain HTTP here), not the https the client claimed');
    }

    public function testUpgradeHeadersArePassedToTheApp(): void
    {
        $response = $this->request('GET', '/socket', [
            'Upgrade' => 'websocket',
            'Connection' => 'Upgrade',
            'Sec-WebSocket-Key' => 'dGhlIHNhbXBsZSBub25jZQ==',
            'Sec-WebSocket-Version' => '13',
        ]);

        $this->assertSame(200, $response->status, $this->logs());
        $body = $response->json();
        $this->assertSame('websocket', $body['upgrade']);
        $this->assertSame('upgrade', $body['connection']);
        $this->assertSame('dGhlIHNhbXBsZSBub25jZQ==', $body['sec-websocket-key']);
    }

    public function testWebSocketsPassThrough(): void
    {
        $probe = @shell_exec('/usr/bin/python3 -c "import websockets" 2>&1 && echo ok');
        if (trim((string) $probe) !== 'ok') {
            $this->markTestSkipped('python3-websockets is not installed (scripts/install-deps.sh installs it)');
        }
        // A client of another implementation (tests/Support/websocket_client.py), through nginx to the app.
        $command = ['/usr/bin/python3', dirname(__DIR__) . '/Support/websocket_client.py', 'echo',
            "ws://127.0.0.1:$this->nginxPort/ws"];
        $proc = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $stdout = (string) stream_get_contents($pipes[1]);
        $stderr = (string) stream_get_contents($pipes[2]);
        $this->assertSame(0, proc_close($proc), "the client failed:\n$stderr$stdout\n" . $this->logs());

        $seen = json_decode($stdout, true, 512, JSON_THROW_ON_ERROR);
        $this->assertSame('v2', $seen['subprotocol']);
        $this->assertSame(array_fill_keys(['0', '1', '125', '126', '65535', '65536', '1048576'], true), $seen['binary_echoed']);
        $this->assertTrue($seen['text_echoed']);
        $this->assertTrue($seen['ping_answered']);
        $this->assertSame([1000, ''], $seen['close']);
    }

    public function testRequestsShareOneKeptAliveUpstreamConnection(): void
    {
        $ports = [];
        for ($i = 0; $i < 5; $i++) {
            // Each request on a new client connection, closed after it:
            // only nginx's upstream connection can be reused.
            $body = $this->request('GET', "/keepalive/$i")->json();
            $this->assertNull($body['connection'], 'no Connection header: neither close nor upgrade');
            $this->assertNull($body['upgrade']);
            $ports[] = $body['remote_port'];
        }

        $this->assertCount(1, array_unique($ports), 'one upstream connection for all: ' . implode(', ', $ports));
    }

    public function testALargePostBodyPasses(): void
    {
        $payload = random_bytes(1536 * 1024);

        $response = $this->request('POST', '/upload', ['Content-Type' => 'application/octet-stream'], $payload);

        $this->assertSame(200, $response->status, $this->logs());
        $body = $response->json();
        $this->assertSame(strlen($payload), $body['body_length']);
        $this->assertSame(sha1($payload), $body['body_sha1']);
    }

    private function writeApp(): void
    {
        $log = var_export("$this->dir/seen.log", true);
        file_put_contents("$this->dir/app.php", <<<PHP
            <?php
            return function (Rapier\Http\Request \$request, Rapier\Http\Response \$response): void {
                file_put_contents($log, \$request->method . ' ' . \$request->path . "\\n", FILE_APPEND);
                if (\$request->path === '/ws') {
                    \$ws = \$response->upgrade('v2');
                    while ((\$message = \$ws->recv()) !== null) {
                        \$ws->send(\$message->data, \$message->binary);
                    }
                    return;
                }
                \$body = \$request->body();
                \$answer = [
                    'path' => \$request->path,
                    'host' => \$request->header('host'),
                    'remote_address' => \$request->remoteAddress,
                    'remote_addr_server' => \$request->server()['REMOTE_ADDR'] ?? null,
                    'request_scheme' => \$request->server()['REQUEST_SCHEME'] ?? null,
                    'remote_port' => \$request->remotePort,
                    'body_length' => strlen(\$body),
                    'body_sha1' => sha1(\$body),
                ];
                foreach (['x-real-ip', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-port',
                    'upgrade', 'connection', 'sec-websocket-key'] as \$name) {
                    \$answer[\$name] = \$request->header(\$name);
                }
                \$response->json(\$answer);
            };
            PHP);
        mkdir("$this->dir/public/css", 0755, true);
        file_put_contents("$this->dir/public/css/site.css", 'body { color: red; }');
        file_put_contents("$this->dir/public/index.php", '<?php echo "source";');
        file_put_contents("$this->dir/public/.env", 'APP_KEY=secret');
    }

    /** Renders deploy/nginx.conf for this test and starts nginx with it. */
    private function startNginx(int $appPort): ServedApp
    {
        $prefix = "$this->dir/nginx";
        mkdir($prefix);
        $site = (string) file_get_contents(dirname(__DIR__, 2) . '/deploy/nginx.conf');
        foreach ([
            'listen 80;' => "listen 127.0.0.1:$this->nginxPort;",
            'server_name example.com;' => 'server_name localhost;',
            'root /srv/app/public;' => "root $this->dir/public;",
            'server 127.0.0.1:8080 ' => "server 127.0.0.1:$appPort ",
        ] as $from => $to) {
            // Directives only (a line's first word), not the header comment's copies.
            $site = preg_replace('/^(\s*)' . preg_quote($from, '/') . '/m', '${1}' . $to, $site, -1, $count);
            $this->assertSame(1, $count, "deploy/nginx.conf has the directive `$from` once");
        }
        file_put_contents("$prefix/site.conf", $site);
        // As root, nginx's workers run as `user` (the default group "nobody" does not exist on Debian).
        $user = posix_geteuid() === 0 ? 'user nobody nogroup;' : '';
        file_put_contents("$prefix/nginx.conf", <<<CONF
            $user
            daemon off;
            worker_processes 1;
            pid $prefix/nginx.pid;
            error_log $prefix/error.log info;
            events { worker_connections 128; }
            http {
                include /etc/nginx/mime.types;
                default_type application/octet-stream;
                sendfile on;
                access_log $prefix/access.log;
                client_body_temp_path $prefix/client_body;
                proxy_temp_path $prefix/proxy;
                fastcgi_temp_path $prefix/fastcgi;
                uwsgi_temp_path $prefix/uwsgi;
                scgi_temp_path $prefix/scgi;
                include $prefix/site.conf;
            }
            CONF);
        $out = "$prefix/stdout";
        $err = "$prefix/stderr";
        $proc = proc_open([self::NGINX, '-p', "$prefix/", '-c', "$prefix/nginx.conf", '-e', "$prefix/error.log"],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', $out, 'w'], 2 => ['file', $err, 'w']], $pipes);
        if ($proc === false) {
            throw new RuntimeException('Cannot start nginx');
        }
        $nginx = new ServedApp($proc, $out, $err);
        try {
            $nginx->waitForPort($this->nginxPort, 10.0);
        } catch (RuntimeException $e) {
            throw new RuntimeException($e->getMessage() . "\n--- error.log\n" . @file_get_contents("$prefix/error.log"));
        }

        return $nginx;
    }

    /**
     * One request to nginx on its own connection, from $from.
     *
     * @param array<string, string> $headers
     */
    private function request(string $method, string $target, array $headers = [], string $body = '', string $from = '127.0.0.1'): HttpResponse
    {
        $context = stream_context_create(['socket' => ['bindto' => "$from:0"]]);
        $socket = @stream_socket_client("tcp://127.0.0.1:$this->nginxPort", $errno, $error, 10, STREAM_CLIENT_CONNECT, $context);
        if ($socket === false) {
            throw new RuntimeException("Cannot connect to nginx from $from: $error");
        }
        stream_set_timeout($socket, 30);
        $headers += ['Host' => "127.0.0.1:$this->nginxPort"];
        $headers += ['Connection' => 'close'];
        if ($method === 'POST') {
            $headers['Content-Length'] = (string) strlen($body);
        }
        $head = "$method $target HTTP/1.1\r\n";
        foreach ($headers as $name => $value) {
            $head .= "$name: $value\r\n";
        }
        fwrite($socket, "$head\r\n$body");
        $raw = self::readResponse($socket);
        fclose($socket);

        return HttpResponse::parse($raw);
    }

    /**
     * The first response on $socket: up to its Content-Length, else to the
     * end. Not simply to the end: after an Upgrade request nginx keeps the
     * client connection open.
     *
     * @param resource $socket
     */
    private static function readResponse($socket): string
    {
        $raw = '';
        while (($end = strpos($raw, "\r\n\r\n")) === false && !feof($socket)) {
            $raw .= (string) fread($socket, 65536);
        }
        if ($end !== false && preg_match('/\r\ncontent-length: *(\d+)/i', substr($raw, 0, $end), $m) === 1) {
            $want = $end + 4 + (int) $m[1];
            while (strlen($raw) < $want && !feof($socket)) {
                $raw .= (string) fread($socket, $want - strlen($raw));
            }
        } else {
            $raw .= (string) stream_get_contents($socket);
        }
        if (stream_get_meta_data($socket)['timed_out']) {
            throw new RuntimeException("No complete answer from nginx within 30 s\n$raw");
        }

        return $raw;
    }

    /** @return list<string> the requests the app handled, in order */
    private function appSaw(): array
    {
        $log = @file_get_contents("$this->dir/seen.log");

        return $log === false ? [] : explode("\n", rtrim($log, "\n"));
    }

    private function logs(): string
    {
        return "--- nginx error.log\n" . @file_get_contents("$this->dir/nginx/error.log")
            . "\n--- rapier\n" . $this->rapier?->output();
    }
}
