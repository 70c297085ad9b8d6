<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use Rapier\Tests\Adapter\AppClient;
use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\ServedApp;
use Rapier\Tests\Support\ServedAppTestCase;
use Rapier\Tests\Support\TlsCertificate;

/**
 * `rapier serve --tls-cert --tls-key` end to end: libcurl verifies the
 * server against the test certificate (curl's --cacert, never -k), and the
 * app, a plain callable or a framework, sees a request that came over HTTPS.
 */
final class ServeHttpsTest extends ServedAppTestCase
{
    private TlsCertificate $cert;

    protected function setUp(): void
    {
        parent::setUp();
        $this->cert = TlsCertificate::create($this->dir);
    }

    public function testServesACallableAppOverHttps(): void
    {
        file_put_contents("$this->dir/app.php", '<?php return function (Rapier\Http\Request $request, Rapier\Http\Response $response) {'
            . ' $response->json(array_intersect_key($request->server(), array_flip(["HTTPS", "REQUEST_SCHEME", "SSL_PROTOCOL"]))); };');
        $port = Cli::freePort();
        // Relative paths, from the current directory, as --document-root's.
        $this->server = Cli::serve(['app.php', '--port', (string) $port, '--workers', '1', '--tls-cert', 'cert.pem', '--tls-key', 'key.pem'],
            cwd: $this->dir);
        $this->server->waitForWorkers("$this->dir/.rapier.pid", 1);

        $response = (new AppClient("https://127.0.0.1:$port", $this->cert->certFile))->get('/');

        $this->assertSame(200, $response->status, $response->describe());
        $server = $response->json();
        $this->assertSame('on', $server['HTTPS'] ?? null);
        $this->assertSame('https', $server['REQUEST_SCHEME'] ?? null);
        $this->assertMatchesRegularExpression('/^TLSv1\.[23]$/D', $server['SSL_PROTOCOL'] ?? '');
        $this->assertStringContainsString("serving $this->dir/app.php (callable) on https://127.0.0.1:$port,", $this->server->stdout());
    }

    public function testPlainHttpToTheHttpsPortGets400(): void
    {
        file_put_contents("$this->dir/app.php", '<?php return fn ($request, $response) => $response->end("never in the clear");');
        $port = Cli::freePort();
        $this->server = Cli::serve(["$this->dir/app.php", '--port', (string) $port, '--workers', '1',
            '--tls-cert', $this->cert->certFile, '--tls-key', $this->cert->keyFile]);
        $this->server->waitForWorkers("$this->dir/.rapier.pid", 1);

        $response = HttpClient::get($port, '/');

        $this->assertSame(400, $response->status);
        $this->assertStringNotContainsString('never in the clear', $response->body);
        // A failed handshake, in `rapier status`: the worker publishes its count before it answers.
        $status = ServedApp::status("$this->dir/.rapier.pid");
        $this->assertSame(1, $status['workers'][0]['tls_handshake_failures'] ?? null);
        $this->assertSame(1, $status['totals']['tls_handshake_failures'] ?? null);
    }

    public function testHttpPortRedirectsToHttpsAndCurlFollows(): void
    {
        file_put_contents("$this->dir/app.php", '<?php return fn ($request, $response) => $response->end('
            . '$request->method . " " . $request->uri . " " . ($request->server()["HTTPS"] ?? "plain"));');
        [$port, $plain] = [Cli::freePort(), Cli::freePort()];
        $this->server = Cli::serve(['app.php', '--port', (string) $port, '--http-port', (string) $plain, '--workers', '2',
            '--tls-cert', 'cert.pem', '--tls-key', 'key.pem'], cwd: $this->dir);
        $this->server->waitForWorkers("$this->dir/.rapier.pid", 2);

        $redirect = HttpClient::request($plain, 'POST', '/orders?page=2', ['Host' => "localhost:$plain"], 'item=1');

        $this->assertSame(308, $redirect->status, $redirect->body);
        $this->assertSame("https://localhost:$port/orders?page=2", $redirect->header('Location'));
        // libcurl follows it, keeping the POST (308), and verifies the certificate on the way.
        $curl = curl_init("http://localhost:$plain/orders?page=2");
        curl_setopt_array($curl, [CURLOPT_FOLLOWLOCATION => true, CURLOPT_POSTFIELDS => 'item=1', CURLOPT_RETURNTRANSFER => true,
            CURLOPT_CAINFO => $this->cert->certFile, CURLOPT_TIMEOUT => 30, CURLOPT_RESOLVE => ["localhost:$plain:127.0.0.1",
            "localhost:$port:127.0.0.1"]]);
        $body = curl_exec($curl);
        $this->assertSame('POST /orders?page=2 on', $body, curl_error($curl));
        $this->assertSame("https://localhost:$port/orders?page=2", curl_getinfo($curl, CURLINFO_EFFECTIVE_URL));
    }

    public function testLaravelSeesTheRequestAsSecure(): void
    {
        mkdir("$this->dir/storage");
        $port = Cli::freePort();
        $this->server = Cli::serve([dirname(__DIR__) . '/apps/laravel', '--port', (string) $port, '--workers', '1',
            '--pid-file', "$this->dir/rapier.pid", '--tls-cert', $this->cert->certFile, '--tls-key', $this->cert->keyFile],
            // A client identity in the worker's environment must not reach a request that brought none.
            env: ['RAPIER_APP_STORAGE' => "$this->dir/storage", 'SSL_CLIENT_S_DN' => 'CN=forged', 'SSL_CLIENT_VERIFY' => 'SUCCESS',
                'PROXY_PROTOCOL_TLV_SSL_CN' => 'forged', 'PROXY_PROTOCOL_SSL_CLIENT_VERIFY' => 'SUCCESS']);
        $this->server->waitForWorkers("$this->dir/rapier.pid", 1);

        $response = (new AppClient("https://127.0.0.1:$port", $this->cert->certFile))->get('/secure');

        $this->assertSame(200, $response->status, $response->describe() . "\n" . $this->server->output());
        $this->assertSame(['secure' => true, 'url' => "https://127.0.0.1:$port/json", 'scheme' => 'https', 'client' => null,
            'proxied_client' => null],
            $response->json(), 'isSecure(), the URLs Laravel generates and $_SERVER agree');
    }

    public function testLaravelOverHttp2ByAlpnAndPriorKnowledge(): void
    {
        mkdir("$this->dir/storage");
        $port = Cli::freePort();
        $this->server = Cli::serve([dirname(__DIR__) . '/apps/laravel', '--port', (string) $port, '--workers', '2',
            '--pid-file', "$this->dir/rapier.pid", '--tls-cert', $this->cert->certFile, '--tls-key', $this->cert->keyFile,
            '--http2'], env: ['RAPIER_APP_STORAGE' => "$this->dir/storage"]);
        $this->server->waitForWorkers("$this->dir/rapier.pid", 2);

        // libcurl offers h2 and http/1.1 by ALPN, as browsers do; the server picks h2.
        $curl = curl_init("https://127.0.0.1:$port/secure");
        curl_setopt_array($curl, [CURLOPT_HTTP_VERSION => CURL_HTTP_VERSION_2TLS, CURLOPT_RETURNTRANSFER => true,
            CURLOPT_CAINFO => $this->cert->certFile, CURLOPT_SSL_VERIFYHOST => 0, CURLOPT_TIMEOUT => 30]);
        $body = curl_exec($curl);
        $this->assertSame(CURL_HTTP_VERSION_2_0, curl_getinfo($curl, CURLINFO_HTTP_VERSION), curl_error($curl));
        $this->assertSame(['secure' => true, 'url' => "https://127.0.0.1:$port/json", 'scheme' => 'https', 'client' => null,
            'proxied_client' => null],
            json_decode((string) $body, true), $this->server->output());

        // Twenty requests multiplexed on one connection: each is answered, in its own stream, by one of the two workers.
        $multi = curl_multi_init();
        curl_multi_setopt($multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
        curl_multi_setopt($multi, CURLMOPT_MAX_HOST_CONNECTIONS, 1);
        $handles = [];
        for ($i = 0; $i < 20; $i++) {
            $handles[$i] = curl_init("https://127.0.0.1:$port/users/$i");
            curl_setopt_array($handles[$i], [CURLOPT_HTTP_VERSION => CURL_HTTP_VERSION_2TLS, CURLOPT_RETURNTRANSFER => true,
                CURLOPT_CAINFO => $this->cert->certFile, CURLOPT_SSL_VERIFYHOST => 0, CURLOPT_TIMEOUT => 30,
                CURLOPT_PIPEWAIT => true]);
            curl_multi_add_handle($multi, $handles[$i]);
        }
        do {
            curl_multi_exec($multi, $running);
            curl_multi_select($multi, 1.0);
        } while ($running > 0);
        $ports = [];
        foreach ($handles as $i => $handle) {
            $this->assertSame(['id' => $i], json_decode((string) curl_multi_getcontent($handle), true), curl_error($handle));
            $this->assertSame(CURL_HTTP_VERSION_2_0, curl_getinfo($handle, CURLINFO_HTTP_VERSION));
            $ports[curl_getinfo($handle, CURLINFO_LOCAL_PORT)] = true;
        }
        $this->assertCount(1, $ports, 'the twenty requests shared one connection');
    }

    public function testTlsClientCaServesOnlyClientsWithACertificateItSigned(): void
    {
        file_put_contents("$this->dir/app.php", '<?php return function (Rapier\Http\Request $request, Rapier\Http\Response $response) {'
            . ' $response->json(array_intersect_key($request->server(), array_flip(["SSL_CLIENT_VERIFY", "SSL_CLIENT_S_DN", "SSL_CLIENT_I_DN"]))); };');
        $alice = TlsCertificate::createClient($this->dir, 'alice');
        $port = Cli::freePort();
        $this->server = Cli::serve(['app.php', '--port', (string) $port, '--workers', '1', '--tls-cert', 'cert.pem',
            '--tls-key', 'key.pem', '--tls-client-ca', 'client-ca.pem'], cwd: $this->dir);
        $this->server->waitForWorkers("$this->dir/.rapier.pid", 1);

        $response = (new AppClient("https://127.0.0.1:$port", $this->cert->certFile, $alice))->get('/');

        $this->assertSame(200, $response->status, $response->describe());
        $this->assertSame(['SSL_CLIENT_VERIFY' => 'SUCCESS', 'SSL_CLIENT_S_DN' => 'CN=alice', 'SSL_CLIENT_I_DN' => 'CN=Rapier Test Client CA'],
            $response->json());
        $this->assertHandshakeRefused(new AppClient("https://127.0.0.1:$port", $this->cert->certFile),
            'a client without a certificate was served');
    }

    public function testTlsCrlRefusesARevokedClient(): void
    {
        file_put_contents("$this->dir/app.php", '<?php return fn ($request, $response) => $response->end('
            . '$request->server()["SSL_CLIENT_S_DN"]);');
        $alice = TlsCertificate::createClient($this->dir, 'alice');
        $mallory = TlsCertificate::createClient($this->dir, 'mallory');
        TlsCertificate::revokeClients($this->dir, [$mallory]);
        $port = Cli::freePort();
        $this->server = Cli::serve(['app.php', '--port', (string) $port, '--workers', '1', '--tls-cert', 'cert.pem',
            '--tls-key', 'key.pem', '--tls-client-ca', 'client-ca.pem', '--tls-crl', 'client-ca.crl'], cwd: $this->dir);
        $this->server->waitForWorkers("$this->dir/.rapier.pid", 1);

        $response = (new AppClient("https://127.0.0.1:$port", $this->cert->certFile, $alice))->get('/');
        $this->assertSame('CN=alice', $response->body, $response->describe());
        $this->assertHandshakeRefused(new AppClient("https://127.0.0.1:$port", $this->cert->certFile, $mallory),
            'a revoked client was served');
    }

    public function testOptionalClientCertificatesFromTheConfigFile(): void
    {
        file_put_contents("$this->dir/app.php", '<?php return fn ($request, $response) => $response->json('
            . '[$request->server()["SSL_CLIENT_VERIFY"] ?? null, $request->server()["SSL_CLIENT_S_DN"] ?? null]);');
        $bob = TlsCertificate::createClient($this->dir, 'bob');
        $port = Cli::freePort();
        file_put_contents("$this->dir/rapier.php", "<?php return ['app' => 'app.php', 'port' => $port, 'workers' => 1,"
            . " 'tls_cert' => 'cert.pem', 'tls_key' => 'key.pem', 'tls_client_ca' => 'client-ca.pem',"
            . " 'server' => ['tls_verify_client' => 'optional']];");
        $this->server = Cli::serve(['--config', "$this->dir/rapier.php"], cwd: '/');
        $this->server->waitForWorkers("$this->dir/.rapier.pid", 1);

        $anonymous = (new AppClient("https://127.0.0.1:$port", $this->cert->certFile))->get('/');
        $known = (new AppClient("https://127.0.0.1:$port", $this->cert->certFile, $bob))->get('/');

        $this->assertSame(['NONE', null], $anonymous->json(), $anonymous->describe());
        $this->assertSame(['SUCCESS', 'CN=bob'], $known->json(), $known->describe());
    }

    public function testMissingCertificateFileIsOneLine(): void
    {
        file_put_contents("$this->dir/app.php", '<?php return fn ($request, $response) => $response->end("never");');

        $result = Cli::run(['serve', "$this->dir/app.php", '--port', (string) Cli::freePort(), '--workers', '1',
            '--tls-cert', "$this->dir/missing.pem"]);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertSame("rapier: cannot serve HTTPS: tls_cert_file $this->dir/missing.pem: No such file or directory\n", $result->stderr);
        $this->assertSame('', $result->stdout, 'no banner for a server that never started');
    }

    /** libcurl's GET fails: the server refused the client in the handshake. */
    private function assertHandshakeRefused(AppClient $client, string $ifServed): void
    {
        try {
            $client->get('/');
            $this->fail($ifServed);
        } catch (\RuntimeException $e) {
            $this->assertStringContainsString('GET / failed', $e->getMessage());
        }
    }
}
