<?php

declare(strict_types=1);

namespace Rapier\Tests\Cli;

use Rapier\Tests\Metrics\PrometheusText;
use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\HttpClient;
use Rapier\Tests\Support\ServedApp;
use Rapier\Tests\Support\ServedAppTestCase;

/** The config's shared tables: made by the master, used by the app through Rapier\App\Tables. */
final class ServeTablesTest extends ServedAppTestCase
{
    /** Counts requests per path in the table 'visits', which it takes as it loads (in the probe too). */
    private const COUNTING_APP = <<<'PHP'
        <?php
        $visits = Rapier\App\Tables::get('visits');
        return function (Rapier\Http\Request $request, Rapier\Http\Response $response) use ($visits) {
            $hits = $visits->incr($request->path, 'hits');
            $visits->set($request->path, ['last' => "pid " . getmypid()]);
            $response->json(['hits' => $hits, 'pid' => getmypid(), 'rows' => count($visits),
                'tables' => array_keys(Rapier\App\Tables::all())]);
        };
        PHP;

    public function testEveryWorkerSharesTheTablesAcrossReloads(): void
    {
        file_put_contents("$this->dir/app.php", self::COUNTING_APP);
        $port = Cli::freePort();
        $this->writeConfig($port, "['visits' => ['size' => 100, 'columns' => ['hits' => 'int', 'last' => 'string:32']],"
            . " 'sessions' => ['size' => 10, 'columns' => ['user' => 'int']]], 'metrics' => '/metrics'");
        $this->server = Cli::serve(['--config', "$this->dir/rapier.php"]);
        $doc = $this->server->waitForWorkers("$this->dir/.rapier.pid", 2);

        $hits = [];
        $pids = [];
        for ($i = 0; $i < 40; $i++) {
            $body = HttpClient::get($port, '/a')->json();
            $hits[] = $body['hits'];
            $pids[$body['pid']] = true;
        }
        $body = HttpClient::get($port, '/b')->json();

        $this->assertSame(range(1, 40), $hits, 'one count, whichever worker answers');
        $this->assertSame(1, $body['hits']);
        $this->assertSame(2, $body['rows']);
        $this->assertSame(['visits', 'sessions'], $body['tables']);
        $workers = ServedApp::workerPids($doc);
        $this->assertSame([], array_diff(array_keys($pids), $workers), 'answered by the workers');
        $metrics = PrometheusText::parse(HttpClient::get($port, '/metrics')->body);
        $this->assertSame(2.0, $metrics->value('rapier_table_rows', ['table' => 'visits']));
        $this->assertSame(100.0, $metrics->value('rapier_table_size_rows', ['table' => 'visits']));
        $this->assertSame(0.0, $metrics->value('rapier_table_rows', ['table' => 'sessions']));

        $reload = Cli::run(['reload', '--pid-file', "$this->dir/.rapier.pid"]);
        $this->assertSame(0, $reload->exitCode, $reload->describe());
        $after = HttpClient::get($port, '/a')->json();

        $this->assertSame(41, $after['hits'], 'the rows outlive the workers that wrote them');
        $this->assertNotContains($after['pid'], array_keys($pids), 'a worker of the new generation');
    }

    public function testATableWithABadColumnStopsServeInOneLine(): void
    {
        file_put_contents("$this->dir/app.php", self::COUNTING_APP);
        $this->writeConfig(Cli::freePort(), "['visits' => ['size' => 100, 'columns' => ['hits' => 'integer']]]");

        $result = Cli::run(['serve', '--config', "$this->dir/rapier.php"]);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertSame("rapier: config file $this->dir/rapier.php: 'tables': table 'visits': columns must give column \"hits\" "
            . "the type \"int\", \"float\" or \"string:N\" (N the most bytes a value holds, 1 to 1048576), \"integer\" given\n",
            $result->stderr);
    }

    public function testAColumnTypeThatIsNotAStringStopsServeInOneLine(): void
    {
        file_put_contents("$this->dir/app.php", self::COUNTING_APP);
        $this->writeConfig(Cli::freePort(), "['visits' => ['size' => 100, 'columns' => ['hits' => 8]]]");

        $result = Cli::run(['serve', '--config', "$this->dir/rapier.php"]);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertSame("rapier: config file $this->dir/rapier.php: 'tables': table 'visits': columns must give column \"hits\" "
            . "its type as a string (\"int\", \"float\" or \"string:N\"), int given\n", $result->stderr);
    }

    public function testTablesOfTheWrongShapeAreRefused(): void
    {
        file_put_contents("$this->dir/app.php", self::COUNTING_APP);
        $this->writeConfig(Cli::freePort(), "['visits' => ['rows' => 100, 'columns' => ['hits' => 'int']]]");

        $result = Cli::run(['serve', '--config', "$this->dir/rapier.php"]);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertSame("rapier: config file $this->dir/rapier.php: 'tables' must map table names to ['size' => rows, "
            . "'columns' => [name => 'int', 'float' or 'string:N']]; 'visits' is not\n", $result->stderr);
    }

    public function testAnUndeclaredTableNamesTheDeclaredOnes(): void
    {
        file_put_contents("$this->dir/app.php", self::COUNTING_APP);
        $this->writeConfig(Cli::freePort(), "['hits' => ['size' => 10, 'columns' => ['n' => 'int']]]");

        $result = Cli::run(['serve', '--config', "$this->dir/rapier.php"]);

        $this->assertSame(1, $result->exitCode, $result->describe());
        $this->assertStringStartsWith("rapier: $this->dir/app.php failed to load: Rapier\\Exception: No table 'visits' among "
            . "the declared tables (hits): declare it under 'tables' in the config file", $result->stderr);
    }

    /** $tables, and any further options after it: PHP source. */
    private function writeConfig(int $port, string $tables): void
    {
        file_put_contents("$this->dir/rapier.php", "<?php return ['app' => 'app.php', 'port' => $port, 'workers' => 2,"
            . " 'tables' => $tables];");
    }
}
