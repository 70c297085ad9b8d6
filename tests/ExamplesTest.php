<?php

declare(strict_types=1);

namespace Rapier\Tests;

use PHPUnit\Framework\TestCase;
use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\PhpProcess;

/**
 * Every script in examples/ runs to its end, writes nothing on stderr and
 * prints what its header comment promises: the examples are the first code
 * a user runs, and they must not rot as the API moves.
 */
final class ExamplesTest extends TestCase
{
    /**
     * @return array<string, array{string, list<string>, string}> file, patterns its output must match, its stdin
     */
    public static function examples(): array
    {
        return [
            'concurrent_commands' => ['concurrent_commands.php', [
                '~shell_exec: \w+~',
                '~pclose: exit code 3~',
                '~all done: 1 s of commands took about [\d.]+ s~',
            ], ''],
            'concurrent_sleeps' => ['concurrent_sleeps.php', ['~all done: 1\.5 s of sleeping took about [\d.]+ s~'], ''],
            'http_fetch' => ['http_fetch.php', [
                '~GET /item/5 -> \{"method":"GET","path":"\\\\/item\\\\/5"~',
                '~5 requests of 300 ms each took \d+ ms together~',
            ], ''],
            'parallel_requests' => ['parallel_requests.php', [
                '~ms  page: /user, /cart, /price\n~',
                '~ms  two at a time: /item/1 /item/2 /item/3 /item/4 /item/5 /item/6\n~',
                '~ms  failed fast: GET /broken\?ms=50 failed: HTTP/1.1 500 Internal Server Error\n~',
                '~ms  Rapier\\\\parallel\(\) timed out after 0\.150 seconds: 1 of 1 callables had not returned~',
            ], ''],
            'producer_consumer' => ['producer_consumer.php', ['~consumed \[\d+,\d+\], sum (\d+) \(produced \1\)~'], ''],
            'stdin_lines' => ['stdin_lines.php', [
                '~worker \d: ALPHA\n~',
                '~worker \d: BETA\n~',
                '~end of input, 2 lines~',
            ], "alpha\nbeta\n"],
        ];
    }

    public function testEveryExampleIsCovered(): void
    {
        $files = array_map('basename', glob(dirname(__DIR__) . '/examples/*.php'));
        $covered = array_column(self::examples(), 0);
        sort($files);
        sort($covered);
        $this->assertSame($files, $covered, 'add the new example to ExamplesTest::examples()');
    }

    /**
     * @dataProvider examples
     * @param list<string> $patterns
     */
    public function testExampleRuns(string $file, array $patterns, string $stdin): void
    {
        $script = dirname(__DIR__) . '/examples/' . $file;
        $php = escapeshellarg(PHP_BINARY) . ' -d ' . escapeshellarg('extension=' . Cli::extension());
        // A pipe, as a user's shell would give it, rather than a file.
        $result = PhpProcess::runCommand([
            'sh', '-c', 'printf %s "$1" | exec ' . $php . ' "$2"', 'sh', $stdin, $script,
        ]);

        $this->assertSame(0, $result->exitCode, $result->describe());
        $this->assertSame('', $result->stderr, $result->describe());
        foreach ($patterns as $pattern) {
            $this->assertMatchesRegularExpression($pattern, $result->stdout);
        }
    }
}
