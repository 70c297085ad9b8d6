<?php

declare(strict_types=1);

namespace Rapier\Tests;

use PHPUnit\Framework\TestCase;
use Rapier\Tests\Support\Cli;
use Rapier\Tests\Support\PhpProcess;

/**
 * Host names resolve off the event loop inside coroutines, for connects,
 * libpq and PHP's DNS functions. The lookups go through glibc's resolver
 * to a real DNS server (tests/apps/dns/server.php, which answers slowly,
 * once enough questions wait, never, or NXDOMAIN as a name asks). Both run in a mount and network namespace of their own, where
 * /etc/resolv.conf names that server on 127.0.0.1:53;
 * tests/apps/dns/client.php runs the scenarios there once and reports them,
 * and each test asserts on one.
 */
final class DnsResolutionTest extends TestCase
{
    /**
     * glibc gives up on a name after 30 s (its longest), once: far later than
     * any connect timeout in client.php, so a lookup those do not bound fails.
     */
    private const RESOLV_CONF = "nameserver 127.0.0.1\noptions timeout:30 attempts:1\n";

    /** Inside the namespaces: loopback up, our resolv.conf, the DNS server, then the client. */
    private const INSIDE = <<<'SH'
        set -e
        ip link set lo up
        mount --bind "$1" /etc/resolv.conf
        "$2" -n "$3" > "$4" &
        server=$!
        trap 'kill $server' EXIT
        for i in $(seq 200); do grep -q ready "$4" && break; sleep 0.05; done
        "$2" -d extension="$5" "$6"
        SH;

    /** @var array<string, mixed>|null */
    private static ?array $report = null;

    private static ?string $skipped = null;

    /** The client's report, from its one run. */
    private function report(): array
    {
        if (self::$report === null && self::$skipped === null) {
            self::runClient();
        }
        if (self::$skipped !== null) {
            self::markTestSkipped(self::$skipped);
        }

        return self::$report;
    }

    private static function runClient(): void
    {
        $unshare = self::unshareCommand();
        if ($unshare === null) {
            self::$skipped = 'cannot create mount and network namespaces here (unshare --mount --net)';

            return;
        }
        $dir = sys_get_temp_dir() . '/rapier-dns-' . getmypid();
        @mkdir($dir);
        file_put_contents("$dir/resolv.conf", self::RESOLV_CONF);
        $apps = dirname(__DIR__) . '/tests/apps/dns';
        try {
            $child = PhpProcess::runCommand([...$unshare, 'sh', '-c', self::INSIDE, 'sh',
                "$dir/resolv.conf", PHP_BINARY, "$apps/server.php", "$dir/server.out",
                Cli::extension(), "$apps/client.php"], self::environment());
        } finally {
            @unlink("$dir/resolv.conf");
            @unlink("$dir/server.out");
            @rmdir($dir);
        }
        $report = json_decode($child->stdout, true);
        self::assertSame(0, $child->exitCode, $child->describe());
        self::assertIsArray($report, $child->describe());
        self::$report = $report;
    }

    /** unshare as root, or else in a user namespace of its own; null when that is not allowed here. */
    private static function unshareCommand(): ?array
    {
        $command = posix_geteuid() === 0
            ? ['unshare', '--mount', '--net']
            : ['unshare', '--map-root-user', '--mount', '--net'];
        $probe = PhpProcess::runCommand([...$command, 'true'], self::environment());

        return $probe->exitCode === 0 ? $command : null;
    }

    /**
     * This environment without LD_PRELOAD: under make asan it holds the
     * sanitizer runtime, which unshare, ip and mount need not carry (the
     * PHP processes get it again from PHP_BINARY, the ASan wrapper).
     *
     * @return array<string, string>
     */
    private static function environment(): array
    {
        $env = getenv();
        unset($env['LD_PRELOAD']);

        return $env;
    }

    public function testTheServerReallyAnswersSlowly(): void
    {
        // Outside a coroutine a lookup blocks, as in stock PHP: 0.3 s for a slow300 name.
        $blocking = $this->report()['blocking'];
        $this->assertTrue($blocking['connected'], json_encode($blocking));
        $this->assertGreaterThanOrEqual(0.29, $blocking['seconds']);
    }

    public function testLookupsInCoroutinesOverlapAndTheLoopRunsMeanwhile(): void
    {
        // The server answers none of the ten lookups before all ten wait at
        // once and the 10 ms ticker has ticked ten times (client.php).
        $concurrent = $this->report()['concurrent'];
        $this->assertSame(['connected' => 10, 'errors' => []], $concurrent['result']);
        $this->assertSame(10, $concurrent['peak']);
        $this->assertGreaterThanOrEqual(10, $concurrent['ticks']);
    }

    public function testLookupsBeyondTheThreadLimitQueueAndAllFinish(): void
    {
        // 40 lookups, none answered before 16 wait at once: 16 threads, the rest queued.
        $queued = $this->report()['queued'];
        $this->assertSame(['connected' => 40, 'errors' => []], $queued['result']);
        $this->assertSame(16, $queued['peak'], 'lookups that ran at once');
    }

    public function testAFailedLookupWarnsExactlyAsStockPhp(): void
    {
        $nxdomain = $this->report()['nxdomain'];
        $stock = $nxdomain['stock'];
        $this->assertFalse($stock['connected']);
        $this->assertStringContainsString(
            'php_network_getaddresses: getaddrinfo for nx-1.rapier.test failed: Name or service not known',
            (string) $stock['errstr'],
        );
        unset($stock['seconds'], $nxdomain['coroutine']['seconds']);
        $this->assertSame($stock, $nxdomain['coroutine']);
    }

    public function testTheConnectTimeoutBoundsALookupThatNeverAnswers(): void
    {
        $timeout = $this->report()['timeout'];
        $this->assertFalse($timeout['result']['connected']);
        $this->assertSame(110, $timeout['result']['errno']);   // ETIMEDOUT
        // The connect timeout's error, not glibc's (which gives up after 30 s).
        $this->assertSame('Connection timed out', $timeout['result']['errstr']);
        $this->assertGreaterThanOrEqual(0.29, $timeout['seconds']);
    }

    public function testACanceledLookupThrowsAndLeavesNothingBehind(): void
    {
        $report = $this->report();
        $this->assertSame(
            'Rapier\CanceledException: Coroutine was canceled while connecting to never-canceled.rapier.test',
            $report['canceled']['result']['seen'],
        );
        // Lookups given up above still run on their threads for 30 s; a new one is not
        // held up (its connect timeout is 10 s), and the client exited 0 with them
        // still running (runClient()).
        $this->assertTrue($report['after']['result']['connected'], json_encode($report['after']));
    }

    /** The PostgreSQL scenarios of client.php, or a skip when pgsql or pdo_pgsql is not loaded. */
    private function pgsqlReport(string $scenario): array
    {
        $report = $this->report();
        if (!isset($report[$scenario])) {
            $this->markTestSkipped('needs the pgsql and pdo_pgsql extensions (php8.2-pgsql)');
        }

        return $report[$scenario];
    }

    public function testPostgresLookupsInCoroutinesOverlap(): void
    {
        // libpq calls getaddrinfo() itself: eight connects (pg_connect() and
        // PDO), none of whose names is answered before all eight wait at once.
        $pgsql = $this->pgsqlReport('pgsql');
        $this->assertSame(8, $pgsql['peak'], 'lookups that ran at once');
        $this->assertCount(8, $pgsql['result']);
        foreach ($pgsql['result'] as $i => $error) {
            // Resolved, then refused: nothing listens on port 1.
            $this->assertStringContainsString(
                "connection to server at \"held8-$i.rapier.test\" (127.0.0.1), port 1 failed: Connection refused",
                $error,
            );
        }
    }

    public function testAFailedPostgresLookupReportsExactlyAsStockPhp(): void
    {
        $nxdomain = $this->pgsqlReport('pgsql_nxdomain');
        $this->assertStringContainsString(
            'could not translate host name "nx-pg.rapier.test" to address: Name or service not known',
            $nxdomain['stock'][0],
        );
        $this->assertSame($nxdomain['stock'], $nxdomain['coroutine']);
    }

    public function testACanceledPostgresLookupThrows(): void
    {
        $this->assertSame(
            'Rapier\CanceledException: Coroutine was canceled while libpq looked up host never-pg.rapier.test',
            $this->pgsqlReport('pgsql_canceled')['result']['seen'],
        );
    }

    public function testPhpDnsFunctionsAnswerInACoroutineAsOutsideOne(): void
    {
        $functions = $this->report()['dns_functions'];
        // The server's answers really came through (server.php): several
        // addresses in order, reverse names, MX and TXT records, NXDOMAIN.
        $stock = $functions['stock'];
        $this->assertSame(['127.0.0.1', '127.0.0.2', '127.0.0.3'], $stock['gethostbynamel']['result']);
        $this->assertSame('host-10-1-2-3.rapier.test', $stock['gethostbyaddr']['result']);
        $this->assertSame('nx-name.rapier.test', $stock['gethostbyname nx']['result']);
        $this->assertSame(['A', 'MX', 'TXT'], array_column($stock['dns_get_record']['result'], 'type'));
        $this->assertSame([true, ['mail.plain.rapier.test'], [10]], $stock['getmxrr']['result']);
        $this->assertSame([true, false], $stock['checkdnsrr']['result']);
        $this->assertSame($stock, $functions['coroutine']);
    }

    public function testPhpDnsFunctionsInCoroutinesOverlap(): void
    {
        // None of the six is answered before all six wait at once.
        $atOnce = $this->report()['dns_at_once'];
        $this->assertSame([
            '127.0.0.1',
            ['127.0.0.1'],
            'host-198-18-6-2.rapier.test',
            ['mail.held6-3.rapier.test'],
            true,
            ['mail.held6-5.rapier.test'],
        ], $atOnce['result']);
        $this->assertSame(6, $atOnce['peak'], 'lookups that ran at once');
    }

    public function testWithHookDnsOffALookupBlocksTheLoop(): void
    {
        $report = $this->report();
        // A 0.3 s answer: the 10 ms ticker runs meanwhile only while the hook is on.
        $this->assertSame('127.0.0.1', $report['dns_hooked']['result']);
        $this->assertGreaterThanOrEqual(20, $report['dns_hooked']['ticks']);
        $this->assertSame('127.0.0.1', $report['dns_not_hooked']['result']);
        $this->assertGreaterThanOrEqual(0.29, $report['dns_not_hooked']['seconds']);
        $this->assertLessThanOrEqual(1, $report['dns_not_hooked']['ticks']);
    }

    public function testACanceledDnsFunctionThrows(): void
    {
        $canceled = array_map(static fn (array $run): string => $run['result']['seen'], $this->report()['dns_canceled']);
        $this->assertSame([
            'gethostbyname' => 'Rapier\CanceledException: Coroutine was canceled while looking up host '
                . 'never-byname.rapier.test',
            'gethostbyaddr' => 'Rapier\CanceledException: Coroutine was canceled while looking up the host name of '
                . '192.0.2.7',
            'dns_get_record' => 'Rapier\CanceledException: Coroutine was canceled while querying DNS for '
                . 'never-record.rapier.test',
        ], $canceled);
    }

    public function testExtSocketsLookupsInCoroutinesOverlap(): void
    {
        $report = $this->report();
        if (!isset($report['sockets_at_once'])) {
            $this->markTestSkipped('ext/sockets is not loaded');
        }
        // socket_connect(), socket_sendto() and socket_addrinfo_lookup(): none answered before all three wait.
        $this->assertSame([true, 1, ['127.0.0.1']], $report['sockets_at_once']['result']);
        $this->assertSame(3, $report['sockets_at_once']['peak'], 'lookups that ran at once');
        $canceled = array_map(static fn (array $run): string => $run['result']['seen'], $report['sockets_canceled']);
        $this->assertSame([
            'socket_connect' => 'Rapier\CanceledException: Coroutine was canceled while looking up host '
                . 'never-socket.rapier.test',
            'socket_addrinfo_lookup' => 'Rapier\CanceledException: Coroutine was canceled while looking up host '
                . 'never-addrinfo.rapier.test',
        ], $canceled);
    }
}
