<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\ServedAppTestCase;

/** `rapier serve` end to end: a real bin/rapier process, real HTTP. */
final class ServeTest extends ServedAppTestCase
{
    public function testServesACallableAppWithTwoWorkers(): void
    {
        $this->writeApp('app.php', '$response->json(["path" => $request->path, "query" => $request->query, "pid" => getmypid()]);');
        $port = Cli::freePort();
        $this->server = Cli::serve(["$this->dir/app.php", '--port', (string) $port, '--workers', '2']);
        $doc = $this->server->waitForWorkers("$this->dir/.rapier.pid", 2);

        $response = HttpClient::get($port, '/hello?a=1');

        $this->assertSame(200, $response->status);
        $body = $response->json();
        $this->assertSame('/hello', $body['path']);
        $this->assertSame(['a' => '1'], $body['query']);
        $this->assertContains($body['pid'], array_column($doc['workers'], 'pid'), 'answered by a worker of the master');
        $this->assertSame($this->server->pid(), $doc['master']['pid'], 'the rapier process is the master');
        $this->assertStringContainsString("serving $this->dir/app.php (callable) on http://127.0.0.1:$port", $this->server->stdout());
    }

    public function testServesInOneProcessWithZeroWorkers(): void
    {
        $this->writeApp('app.php', '$response->end("single " . getmypid());');
        $port = Cli::freePort();
        $this->server = Cli::serve(["$this->dir/app.php", '--port', (string) $port, '--workers', '0']);
        $this->server->waitForPort($port);

        $this->assertSame('single ' . $this->server->pid(), HttpClient::get($port, '/')->body);
        $this->assertFileDoesNotExist("$this->dir/.rapier.pid", 'no master, no pid file');
    }

    public function testServesAProjectDirectoryByItsAppPhp(): void
    {
        $this->writeApp('app.php', '$response->end("from the directory");');
        $port = Cli::freePort();
        $this->server = Cli::serve([$this->dir, '--port', (string) $port, '--workers', '1']);
        $this->server->waitForWorkers("$this->dir/.rapier.pid", 1);

        $this->assertSame('from the directory', HttpClient::get($port, '/')->body);
    }

    public function testDocumentRootFilesAreServedBeforeTheApp(): void
    {
        $this->writeApp('app.php', '$response->end("app");');
        mkdir("$this->dir/public");
        file_put_contents("$this->dir/public/style.css", 'body{}');
        $port = Cli::freePort();
        $this->server = Cli::serve(["$this->dir/app.php", '--port', (string) $port, '--workers', '1',
            '--document-root', "$this->dir/public"]);
        $this->server->waitForWorkers("$this->dir/.rapier.pid", 1);

        $this->assertSame('body{}', HttpClient::get($port, '/style.css')->body);
        $this->assertSame('app', HttpClient::get($port, '/other')->body);
    }

    public function testTaskWorkersRunNamedCallables(): void
    {
        file_put_contents("$this->dir/app.php", '<?php function square(int $n): array { return [$n * $n, getmypid()]; }'
            . ' return function ($request, $response) { $response->json(Rapier\App\Tasks::run("square", [7], 10.0)); };');
        $port = Cli::freePort();
        $this->server = Cli::serve(["$this->dir/app.php", '--port', (string) $port, '--workers', '1', '--task-workers', '1']);
        $doc = $this->server->waitForWorkers("$this->dir/.rapier.pid", 1);

        [$square, $pid] = HttpClient::get($port, '/')->json();

        $this->assertSame(49, $square);
        $tasks = array_filter($doc['workers'], static fn (array $w): bool => $w['role'] === 'task_worker');
        $this->assertSame([$pid], array_column($tasks, 'pid'), 'computed in the task worker');
    }

    public function testWorkersMessageEachOtherByTopic(): void
    {
        // The request's worker (0) asks the task worker (1) on topic "ask"; the answer comes back on "answer".
        file_put_contents("$this->dir/app.php", <<<'PHP'
            <?php
            use Rapier\App\Messages;
            $answers = new Rapier\Channel(1);
            Messages::listen('ask', fn (array $q, int $from) => Messages::send('answer', [$q[0] * $q[0], getmypid(), $from], $from));
            Messages::listen('answer', fn (array $a, int $from) => $answers->push([...$a, $from]));
            return function ($request, $response) use ($answers) {
                Messages::send('ask', [9], 1);
                $response->json($answers->pop(10.0));
            };
            PHP);
        $port = Cli::freePort();
        $this->server = Cli::serve(["$this->dir/app.php", '--port', (string) $port, '--workers', '1', '--task-workers', '1']);
        $doc = $this->server->waitForWorkers("$this->dir/.rapier.pid", 1);

        [$square, $pid, $askedBy, $answeredBy] = HttpClient::get($port, '/')->json();

        $this->assertSame(81, $square);
        $tasks = array_filter($doc['workers'], static fn (array $w): bool => $w['role'] === 'task_worker');
        $this->assertSame([$pid], array_column($tasks, 'pid'), 'answered by the task worker');
        $this->assertSame([0, 1], [$askedBy, $answeredBy], 'each side saw the other\'s worker id');
    }

    public function testConfigFileSetsOptionsAndServerOptions(): void
    {
        $this->writeApp('app.php', '$response->end("configured");');
        $port = Cli::freePort();
        file_put_contents("$this->dir/rapier.php", "<?php return ['app' => 'app.php', 'port' => $port, 'workers' => 1,"
            . " 'pid_file' => 'run/server.pid', 'server' => ['server_name' => 'from-config']];");
        mkdir("$this->dir/run");
        $this->server = Cli::serve(['--config', "$this->dir/rapier.php"], cwd: sys_get_temp_dir());
        $this->server->waitForWorkers("$this->dir/run/server.pid", 1);

        $response = HttpClient::get($port, '/');
        $this->assertSame('configured', $response->body);
        $this->assertSame('from-config', $response->header('server'), "the config's 'server' options reach the Server");
    }

    public function testCommandLineOverridesTheConfigFile(): void
    {
        $this->writeApp('app.php', '$response->end("overridden");');
        $port = Cli::freePort();
        file_put_contents("$this->dir/rapier.php", "<?php return ['app' => 'app.php', 'port' => 1, 'workers' => 1];");
        $this->server = Cli::serve(['--config', "$this->dir/rapier.php", '--port', (string) $port]);
        $this->server->waitForWorkers("$this->dir/.rapier.pid", 1);

        $this->assertSame('overridden', HttpClient::get($port, '/')->body);
    }

    public function testUnknownConfigOptionIsOneLine(): void
    {
        file_put_contents("$this->dir/rapier.php", "<?php return ['app' => 'app.php', 'wokers' => 2];");

        $result = Cli::run(['serve', '--config', "$this->dir/rapier.php"]);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertMatchesRegularExpression("/^rapier: config file .*rapier.php: unknown option 'wokers' \\(known: host, port, workers, /", $result->stderr);
        $this->assertSame(1, substr_count($result->stderr, "\n"), $result->describe());
    }

    public function testPortInUseIsOneLine(): void
    {
        $this->writeApp('app.php', '$response->end("never");');
        $taken = stream_socket_server('tcp://127.0.0.1:0');
        $name = (string) stream_socket_get_name($taken, false);
        $port = substr($name, strrpos($name, ':') + 1);

        $result = Cli::run(['serve', "$this->dir/app.php", '--port', $port, '--workers', '1']);
        fclose($taken);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertSame("rapier: port $port is already in use on 127.0.0.1: another server is listening there "
            . "(stop it, or choose another --port)\n", $result->stderr);
        $this->assertSame('', $result->stdout, 'no banner for a server that never started');
    }

    public function testMissingAppIsOneLine(): void
    {
        $result = Cli::run(['serve', "$this->dir/nope.php"]);

        $this->assertSame(1, $result->exitCode);
        $this->assertSame("rapier: APP not found: $this->dir/nope.php\n", $result->stderr);
    }

    public function testServeWithoutAppIsAUsageError(): void
    {
        $result = Cli::run(['serve', '--port', '9']);

        $this->assertSame(2, $result->exitCode);
        $this->assertStringStartsWith('rapier: serve needs an APP', $result->stderr);
    }

    /** @return iterable<string, array{string, string}> */
    public static function unservableApps(): iterable
    {
        yield 'no return' => ['<?php $x = 1;', 'returned nothing (no return statement); expected a callable(Request, Response), a PSR-15 RequestHandlerInterface'];
        yield 'an int' => ['<?php return 42;', 'returned int 42; expected a callable(Request, Response)'];
        yield 'an object' => ['<?php return new ArrayObject();', 'returned an object of class ArrayObject; expected a callable'];
        yield 'a parse error' => ['<?php return function ( {', 'failed to load: ParseError: syntax error'];
        yield 'a fatal error' => ['<?php function strlen() {} return fn () => 1;', 'failed to load: Cannot redeclare strlen()'];
        yield 'a throw' => ['<?php throw new RuntimeException("no database");', 'failed to load: RuntimeException: no database'];
    }

    /** @dataProvider unservableApps */
    public function testUnservableAppIsOneLine(string $code, string $reason): void
    {
        file_put_contents("$this->dir/app.php", $code);

        $result = Cli::run(['serve', "$this->dir/app.php", '--port', (string) Cli::freePort(), '--workers', '1']);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertStringStartsWith("rapier: $this->dir/app.php ", $result->stderr);
        $this->assertStringContainsString($reason, $result->stderr);
        $this->assertSame(1, substr_count($result->stderr, "\n"), $result->describe());
        $this->assertFileDoesNotExist("$this->dir/.rapier.pid");
    }

    public function testSecondServerOnTheSamePidFileIsRefused(): void
    {
        $this->writeApp('app.php', '$response->end("first");');
        $port = Cli::freePort();
        $this->server = Cli::serve(["$this->dir/app.php", '--port', (string) $port, '--workers', '1']);
        $doc = $this->server->waitForWorkers("$this->dir/.rapier.pid", 1);

        $result = Cli::run(['serve', "$this->dir/app.php", '--port', (string) Cli::freePort(), '--workers', '1']);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertSame("rapier: a server is already running with pid file $this->dir/.rapier.pid (pid {$doc['master']['pid']}): "
            . "`rapier stop` it first, or use another --pid-file\n", $result->stderr);
    }

    public function testUsageErrors(): void
    {
        $unknown = Cli::run(['serve', 'app.php', '--wrokers', '2']);
        $this->assertSame(2, $unknown->exitCode);
        $this->assertSame("rapier: unknown option --wrokers (see `rapier help`)\n", $unknown->stderr);

        $range = Cli::run(['serve', 'app.php', '--port', '70000']);
        $this->assertSame(2, $range->exitCode);
        $this->assertSame("rapier: --port must be an integer from 1 to 65535, got 70000 (see `rapier help`)\n", $range->stderr);

        $command = Cli::run(['srve']);
        $this->assertSame(2, $command->exitCode);
        $this->assertSame("rapier: unknown command 'srve' (see `rapier help`)\n", $command->stderr);
    }

    public function testVersionAndHelp(): void
    {
        $version = Cli::run(['--version']);
        $this->assertSame(0, $version->exitCode);
        $this->assertSame(sprintf("rapier %s (PHP %s)\n", phpversion('rapier'), PHP_VERSION), $version->stdout);

        $help = Cli::run(['help']);
        $this->assertSame(0, $help->exitCode);
        $this->assertStringContainsString('rapier serve APP [options]', $help->stdout);
        $this->assertStringContainsString('--max-requests N', $help->stdout);
    }

    public function testLoadsTheExtensionItselfWhenPhpIniDoesNot(): void
    {
        $result = Cli::run(['--version'], env: ['RAPIER_EXTENSION' => Cli::extension()], withModule: false);

        $this->assertSame(0, $result->exitCode, $result->describe());
        $this->assertSame(sprintf("rapier %s (PHP %s)\n", phpversion('rapier'), PHP_VERSION), $result->stdout);
    }

    public function testSaysHowToBuildWhenTheExtensionIsMissing(): void
    {
        $result = Cli::run(['serve', 'app.php'], env: ['RAPIER_EXTENSION' => "$this->dir/missing.so"], withModule: false);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertStringStartsWith("rapier: the rapier extension is not loaded and $this->dir/missing.so does not exist: "
            . 'build it with `make build`', $result->stderr);
    }

    private function writeApp(string $name, string $body): void
    {
        file_put_contents("$this->dir/$name", "<?php\nreturn function (Rapier\\Http\\Request \$request, Rapier\\Http\\Response \$response) {\n    $body\n};\n");
    }
}
