<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use PHPUnit\Framework\TestCase;
use Rapier\Cli\Arguments;
use Rapier\Cli\CliException;
use Rapier\Cli\ServeConfig;
use Rapier\Tests\Support\Cli;

/** How `rapier serve` options become Rapier\Http\Server options. */
final class ServeConfigTest extends TestCase
{
    public function testOptionsMapToServerOptions(): void
    {
        $config = self::config(['app.php', '--workers=3', '--task-workers', '2', '--max-requests', '500',
            '--document-root', 'public', '--log-file', '/var/log/r.log'], '/srv');

        $this->assertSame('/srv/app.php', $config->app);
        $this->assertSame([
            'workers' => 3,
            'task_workers' => 2,
            'max_requests' => 500,
            'document_root' => '/srv/public',
            'pid_file' => '/srv/.rapier.pid',
            'error_log' => '/var/log/r.log',
        ], $config->serverOptions(false));
    }

    public function testFrameworkAppsServeOneRequestAtATimeUnlessTold(): void
    {
        $this->assertSame(1, self::config(['app.php'])->serverOptions(true)['concurrency']);
        $this->assertArrayNotHasKey('concurrency', self::config(['app.php'])->serverOptions(false));
        $this->assertSame(8, self::config(['app.php', '--concurrency', '8'])->serverOptions(true)['concurrency']);
    }

    public function testQueueTimeoutGoesWithAConcurrencyLimit(): void
    {
        $this->assertSame(0.25, self::config(['app.php', '--queue-timeout', '0.25'])->serverOptions(true)['queue_timeout']);
        $this->assertSame(['concurrency' => 64, 'queue_timeout' => 2.0], array_intersect_key(
            self::config(['app.php', '--concurrency', '64', '--queue-timeout', '2'])->serverOptions(false),
            ['concurrency' => 0, 'queue_timeout' => 0],
        ));
        try {
            self::config(['app.php', '--queue-timeout', '1'])->serverOptions(false);
            $this->fail('no error');
        } catch (CliException $e) {
            $this->assertSame(CliException::USAGE, $e->getCode());
            $this->assertStringStartsWith('--queue-timeout needs --concurrency N', $e->getMessage());
        }
    }

    public function testLatencyTargetGoesWithAConcurrencyLimitAboveOne(): void
    {
        $this->assertSame(['concurrency' => 64, 'latency_target' => 0.1], array_intersect_key(
            self::config(['app.php', '--concurrency', '64', '--latency-target', '0.1'])->serverOptions(false),
            ['concurrency' => 0, 'latency_target' => 0],
        ));
        // A framework app's default of one request at a time leaves nothing to adapt.
        foreach ([['app.php', '--latency-target', '0.1'], ['app.php', '--concurrency', '1', '--latency-target', '0.1']] as $argv) {
            try {
                self::config($argv)->serverOptions(true);
                $this->fail('no error for ' . implode(' ', $argv));
            } catch (CliException $e) {
                $this->assertSame(CliException::USAGE, $e->getCode());
                $this->assertStringStartsWith('--latency-target needs --concurrency N above 1', $e->getMessage());
            }
        }
    }

    public function testSlowlogTimeoutIsPassedToTheServer(): void
    {
        $this->assertSame(['slowlog_timeout' => 2.5], array_intersect_key(
            self::config(['app.php', '--slowlog-timeout', '2.5'])->serverOptions(true),
            ['slowlog_timeout' => 0],
        ));
        $this->assertArrayNotHasKey('slowlog_timeout', self::config(['app.php'])->serverOptions(true));
    }

    public function testConfigFilePathsAreRelativeToItAndTheCommandLineWins(): void
    {
        $dir = Cli::tempDirectory();
        try {
            file_put_contents("$dir/rapier.php", "<?php return ['app' => 'app.php', 'port' => 9000, 'max-requests' => 5,"
                . " 'pid_file' => 'run/r.pid', 'server' => ['gzip' => false, 'workers' => 99]];");

            $config = self::config(['--config', "$dir/rapier.php", '--port', '9001', '--workers', '2'], '/elsewhere');

            $this->assertSame("$dir/app.php", $config->app);
            $this->assertSame(9001, $config->port);
            $this->assertSame("$dir/rapier.php", $config->configFile);
            $this->assertSame(['workers' => 2, 'max_requests' => 5, 'pid_file' => "$dir/run/r.pid", 'gzip' => false],
                $config->serverOptions(false), "the named options win over the config's 'server' array");
        } finally {
            Cli::removeDirectory($dir);
        }
    }

    public function testTlsFilesMapToServerOptionsAndMakeTheUrlHttps(): void
    {
        $config = self::config(['app.php', '--tls-cert', 'tls/cert.pem', '--tls-key', '/etc/tls/key.pem'], '/srv');

        $this->assertSame(['tls_cert_file' => '/srv/tls/cert.pem', 'tls_key_file' => '/etc/tls/key.pem'],
            array_intersect_key($config->serverOptions(false), ['tls_cert_file' => 0, 'tls_key_file' => 0]));
        $this->assertSame('https://127.0.0.1:8080', $config->url());

        $plain = self::config(['app.php', '--host', '::1']);
        $this->assertArrayNotHasKey('tls_cert_file', $plain->serverOptions(false));
        $this->assertSame('http://[::1]:8080', $plain->url());
    }

    public function testTlsClientCaMapsToTlsClientCaFile(): void
    {
        $options = self::config(['app.php', '--tls-cert', '/etc/tls/cert.pem', '--tls-client-ca', 'tls/clients.pem'], '/srv')
            ->serverOptions(false);

        $this->assertSame('/srv/tls/clients.pem', $options['tls_client_ca_file']);
        $this->assertArrayNotHasKey('tls_verify_client', $options, 'the server requires a certificate by default');
        $this->assertArrayNotHasKey('tls_client_ca_file', self::config(['app.php', '--tls-cert', 'c.pem'])->serverOptions(false));
    }

    public function testTlsCrlMapsToTlsCrlFile(): void
    {
        $options = self::config(['app.php', '--tls-cert', 'c.pem', '--tls-client-ca', 'ca.pem', '--tls-crl', 'tls/crl.pem'],
            '/srv')->serverOptions(false);

        $this->assertSame('/srv/tls/crl.pem', $options['tls_crl_file']);
        $this->assertArrayNotHasKey('tls_crl_file', self::config(['app.php', '--tls-cert', 'c.pem', '--tls-client-ca', 'ca.pem'])
            ->serverOptions(false));
    }

    public function testHttpPortMapsToTheServersHttpPort(): void
    {
        $options = self::config(['app.php', '--tls-cert', '/etc/tls/cert.pem', '--port', '443', '--http-port', '80'])
            ->serverOptions(false);

        $this->assertSame(80, $options['http_port']);
        $this->assertArrayNotHasKey('https_redirect', $options, 'the server redirects to its own port by default');
        $this->assertArrayNotHasKey('http_port', self::config(['app.php', '--tls-cert', 'c.pem'])->serverOptions(false));
    }

    public function testAnAppThatRequiresHttp2GetsItWithoutTheFlag(): void
    {
        // A gRPC server (Rapier\Adapter\RequiresHttp2): its clients speak nothing else.
        $this->assertTrue(self::config(['app.php'])->serverOptions(false, requiresHttp2: true)['http2']);
        $dir = Cli::tempDirectory();
        try {
            file_put_contents("$dir/rapier.php", "<?php return ['app' => 'app.php', 'server' => ['http2' => false]];");
            $this->assertTrue(self::config(['--config', "$dir/rapier.php"])->serverOptions(false, requiresHttp2: true)['http2'],
                "not even the config's 'server' array turns it off");
        } finally {
            Cli::removeDirectory($dir);
        }
    }

    public function testAnAppThatReadsBodiesAsTheyArriveGetsRequestBufferingOff(): void
    {
        // A gRPC server: a both-ways call needs each message before the client sends the next.
        $options = self::config(['app.php'])->serverOptions(false, true, readsBodyAsItArrives: true);
        $this->assertFalse($options['request_buffering']);
        $this->assertArrayNotHasKey('request_buffering', self::config(['app.php'])->serverOptions(false), 'the server\'s default otherwise');
        $dir = Cli::tempDirectory();
        try {
            file_put_contents("$dir/rapier.php", "<?php return ['app' => 'app.php', 'server' => ['request_buffering' => true]];");
            $options = self::config(['--config', "$dir/rapier.php"])->serverOptions(false, true, readsBodyAsItArrives: true);
            $this->assertTrue($options['request_buffering'],
                "the config's 'server' array may turn it back on: calls still work, one way at a time");
        } finally {
            Cli::removeDirectory($dir);
        }
    }

    public function testHttp2IsAFlagOnTheCommandLineAndInTheConfigFile(): void
    {
        $this->assertTrue(self::config(['app.php', '--http2'])->serverOptions(false)['http2']);
        $this->assertArrayNotHasKey('http2', self::config(['app.php'])->serverOptions(false), 'off unless asked for');
        $dir = Cli::tempDirectory();
        try {
            file_put_contents("$dir/rapier.php", "<?php return ['app' => 'app.php', 'http2' => true];");
            $this->assertTrue(self::config(['--config', "$dir/rapier.php"])->serverOptions(false)['http2']);
            file_put_contents("$dir/rapier.php", "<?php return ['app' => 'app.php', 'http2' => 'yes'];");
            $this->expectException(CliException::class);
            $this->expectExceptionMessage('http2');
            self::config(['--config', "$dir/rapier.php"]);
        } finally {
            Cli::removeDirectory($dir);
        }
    }

    public function testCertificateAloneLeavesTheKeyToTheServer(): void
    {
        $options = self::config(['app.php', '--tls-cert', '/etc/tls/both.pem'])->serverOptions(false);

        $this->assertSame('/etc/tls/both.pem', $options['tls_cert_file']);
        $this->assertArrayNotHasKey('tls_key_file', $options, 'the server reads the key from the certificate\'s file');
    }

    public function testConfigFileTlsPathsAreRelativeToItAndOtherTlsOptionsGoInServer(): void
    {
        $dir = Cli::tempDirectory();
        try {
            file_put_contents("$dir/rapier.php", "<?php return ['app' => 'app.php', 'tls_cert' => 'tls/cert.pem', 'tls-key' => 'tls/key.pem',"
                . " 'tls_client_ca' => 'tls/clients.pem',"
                . " 'server' => ['tls_min_version' => '1.3', 'tls_ciphers' => 'ECDHE+AESGCM', 'tls_verify_client' => 'optional']];");

            $config = self::config(['--config', "$dir/rapier.php"], '/elsewhere');

            $this->assertSame([
                'tls_cert_file' => "$dir/tls/cert.pem",
                'tls_key_file' => "$dir/tls/key.pem",
                'tls_client_ca_file' => "$dir/tls/clients.pem",
                'tls_min_version' => '1.3',
                'tls_ciphers' => 'ECDHE+AESGCM',
                'tls_verify_client' => 'optional',
            ], array_intersect_key($config->serverOptions(false), ['tls_cert_file' => 0, 'tls_key_file' => 0,
                'tls_min_version' => 0, 'tls_ciphers' => 0, 'tls_client_ca_file' => 0, 'tls_verify_client' => 0]));
            $this->assertStringStartsWith('https://', $config->url());
        } finally {
            Cli::removeDirectory($dir);
        }
    }

    public function testCertificateInTheServerArrayServesHttpsToo(): void
    {
        $dir = Cli::tempDirectory();
        try {
            file_put_contents("$dir/rapier.php", "<?php return ['app' => 'app.php', 'server' => ['tls_cert_file' => '/etc/tls/cert.pem']];");

            $config = self::config(['--config', "$dir/rapier.php", '--tls-key', '/etc/tls/key.pem']);

            $this->assertSame('https://127.0.0.1:8080', $config->url());
            $this->assertSame('/etc/tls/key.pem', $config->serverOptions(false)['tls_key_file'], 'a key for that certificate');
        } finally {
            Cli::removeDirectory($dir);
        }
    }

    public function testConfigFileTablesAreKeptForTheMaster(): void
    {
        $dir = Cli::tempDirectory();
        try {
            $tables = ['visits' => ['size' => 100, 'columns' => ['hits' => 'int', 'path' => 'string:200']]];
            file_put_contents("$dir/rapier.php", '<?php return ' . var_export(['app' => 'app.php', 'tables' => $tables], true) . ';');

            $this->assertSame($tables, self::config(['--config', "$dir/rapier.php"])->tables);
            $this->assertSame([], self::config(['app.php'])->tables, 'none without a config file');
            $this->assertArrayNotHasKey('tables', self::config(['--config', "$dir/rapier.php"])->serverOptions(false),
                'not a Server option');
        } finally {
            Cli::removeDirectory($dir);
        }
    }

    /** @return iterable<string, array{string, string}> */
    public static function badTables(): iterable
    {
        $shape = "must map table names to ['size' => rows, 'columns' => [name => 'int', 'float' or 'string:N']]";
        yield 'not an array' => ["'visits'", "'tables' $shape, got string"];
        yield 'a list' => ["[['size' => 1, 'columns' => ['a' => 'int']]]", "'tables' $shape; key 0 is not a name"];
        yield 'no size' => ["['t' => ['columns' => ['a' => 'int']]]", "'tables' $shape; 't' is not"];
        yield 'size not an int' => ["['t' => ['size' => '10', 'columns' => ['a' => 'int']]]", "'tables' $shape; 't' is not"];
        yield 'an unknown key' => ["['t' => ['size' => 10, 'columns' => ['a' => 'int'], 'ttl' => 5]]", "'tables' $shape; 't' is not"];
    }

    /** @dataProvider badTables */
    public function testConfigFileTablesOfTheWrongShapeAreRefused(string $tables, string $message): void
    {
        $dir = Cli::tempDirectory();
        try {
            file_put_contents("$dir/rapier.php", "<?php return ['app' => 'app.php', 'tables' => $tables];");
            self::config(['--config', "$dir/rapier.php"]);
            $this->fail('no error');
        } catch (CliException $e) {
            $this->assertSame("config file $dir/rapier.php: $message", $e->getMessage());
        } finally {
            Cli::removeDirectory($dir);
        }
    }

    /** @return iterable<string, array{list<string>, string}> */
    public static function badArguments(): iterable
    {
        yield 'port out of range' => [['app.php', '--port', '0'], '--port must be an integer from 1 to 65535, got 0'];
        yield 'not a number' => [['app.php', '--workers', 'four'], "--workers must be an integer from 0 to 1024, got 'four'"];
        yield 'watch without workers' => [['app.php', '--workers', '0', '--watch'],
            '--watch, --watch-poll and --daemon need --workers 1 or more'];
        yield 'watch-poll without workers' => [['app.php', '--workers', '0', '--watch-poll'],
            '--watch, --watch-poll and --daemon need --workers 1 or more'];
        yield 'max requests without workers' => [['app.php', '--workers', '0', '--max-requests', '3'],
            '--max-requests and max_memory need --workers 1 or more'];
        yield 'two apps' => [['a.php', 'b.php'], 'serve takes one APP, got 2'];
        yield 'flag with a value' => [['app.php', '--watch=yes'], '--watch takes no value'];
        yield 'missing value' => [['app.php', '--port'], '--port needs a value'];
        yield 'queue timeout of 0' => [['app.php', '--queue-timeout', '0'], '--queue-timeout must be a number of seconds greater than 0 and at most 9e9, got 0.0'];
        yield 'latency target of 0' => [['app.php', '--latency-target', '0'], '--latency-target must be a number of seconds greater than 0 and at most 9e9, got 0.0'];
        yield 'slowlog timeout of 0' => [['app.php', '--slowlog-timeout', '0'], '--slowlog-timeout must be a number of seconds greater than 0 and at most 9e9, got 0.0'];
        yield 'tls key without a certificate' => [['app.php', '--tls-key', 'key.pem'], '--tls-key needs --tls-cert'];
        yield 'tls client ca without a certificate' => [['app.php', '--tls-client-ca', 'ca.pem'], '--tls-client-ca needs --tls-cert'];
        yield 'tls crl without a client ca' => [['app.php', '--tls-cert', 'c.pem', '--tls-crl', 'crl.pem'],
            '--tls-crl needs --tls-client-ca'];
        yield 'http port without a certificate' => [['app.php', '--http-port', '80'], '--http-port needs --tls-cert'];
        yield 'http port on the https port' => [['app.php', '--tls-cert', 'c.pem', '--port', '8443', '--http-port', '8443'],
            '--http-port must differ from --port (8443), which speaks HTTPS'];
        yield 'http port out of range' => [['app.php', '--tls-cert', 'c.pem', '--http-port', '65536'],
            '--http-port must be an integer from 1 to 65535, got 65536'];
        yield 'empty tls certificate' => [['app.php', '--tls-cert', ''], '--tls-cert must be a non-empty string'];
        yield 'queue timeout not a number' => [['app.php', '--queue-timeout', '1s'], "--queue-timeout must be a number of seconds greater than 0 and at most 9e9, got '1s'"];
    }

    /**
     * @dataProvider badArguments
     * @param list<string> $args
     */
    public function testBadArgumentsAreUsageErrors(array $args, string $message): void
    {
        try {
            self::config($args);
            $this->fail('no error');
        } catch (CliException $e) {
            $this->assertSame(CliException::USAGE, $e->getCode());
            $this->assertStringStartsWith($message, $e->getMessage());
        }
    }

    /** @param list<string> $args */
    private static function config(array $args, string $cwd = '/srv'): ServeConfig
    {
        return ServeConfig::fromArguments(Arguments::parse($args, ServeConfig::SPEC), $cwd);
    }
}
