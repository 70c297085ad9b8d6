<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use RuntimeException;

/**
 * A MariaDB and a Redis of a test's own, which it may stop and start again
 * (fault tests: the database goes away and comes back). They are started by
 * scripts/services.sh in a scratch directory, exactly like the suite's
 * shared ones, so stopping them disturbs no other test.
 *
 * A restart runs the server as services.sh did: MariaDB with the command
 * line it runs with (read from /proc/PID/cmdline), Redis with services.sh's
 * options (redis-server rewrites its own cmdline into a process title).
 * Same port, same data directory, same pid file, so `services.sh stop`
 * still finds and stops it at the end.
 *
 * Waits poll with usleep(), which the runtime hooks turn into a coroutine
 * sleep: called inside Rapier\run() a stop or start lets the other
 * coroutines run meanwhile, outside it simply blocks.
 */
final class RestartableServices
{
    /** A server that does not stop or answer by then fails the test. */
    private const WAIT_SECONDS = 60;

    /** @var array<string, string> RAPIER_TEST_* name => value, from services.sh's env file */
    private array $env = [];

    /** @var array<string, list<string>> server => its command line, saved when first stopped */
    private array $commands = [];

    /** @var array<string, resource> servers started by restart(), reaped on stop */
    private array $children = [];

    private bool $destroyed = false;

    private function __construct(private readonly string $dir)
    {
    }

    public static function start(): self
    {
        $dir = sys_get_temp_dir() . '/rapier-restartable-' . getmypid() . '-' . bin2hex(random_bytes(4));
        $self = new self($dir);
        $self->exec([self::servicesScript(), 'start', $dir]);
        try {
            preg_match_all("/^export (RAPIER_TEST_\\w+)='?([^'\\n]*)'?$/m", (string) file_get_contents("$dir/env"), $m, PREG_SET_ORDER);
            foreach ($m as [, $name, $value]) {
                $self->env[$name] = $value;
            }
            $self->commands['redis'] = [
                'redis-server', '--port', (string) $self->redisPort(), '--bind', '127.0.0.1', '--save', '',
                '--appendonly', 'no', '--dir', $dir, '--logfile', "$dir/redis.log", '--daemonize', 'no',
            ];
        } catch (\Throwable $e) {
            $self->destroy();
            throw $e;
        }
        // PHPUnit skips tearDownAfterClass() when a run aborts: the servers
        // must not outlive the test process anyway.
        register_shutdown_function($self->destroy(...));

        return $self;
    }

    public function mysqlPort(): int
    {
        return (int) $this->env['RAPIER_TEST_MYSQL_PORT'];
    }

    public function mysqlDsn(): string
    {
        return $this->env['RAPIER_TEST_MYSQL_DSN'];
    }

    public function redisPort(): int
    {
        return (int) $this->env['RAPIER_TEST_REDIS_PORT'];
    }

    /** Runs SQL as MariaDB's administrator over the Unix socket (the OS account that started it, by socket). */
    public function mariadbAdmin(string $sql): void
    {
        $this->exec(['mariadb', '--no-defaults', "--socket={$this->dir}/mysql.sock",
            "--user={$this->env['RAPIER_TEST_MYSQL_ADMIN']}", '-e', $sql]);
    }

    /** Stops MariaDB (SIGTERM, as an administrator would) and waits until it has exited. */
    public function stopMariaDb(): void
    {
        $this->stop('mariadb');
    }

    /** Starts MariaDB again on the same port and data, and waits until it accepts logins. */
    public function startMariaDb(): void
    {
        $this->restart('mariadb');
        $this->waitFor('MariaDB', fn (): bool => $this->mariadbAnswers());
    }

    public function stopRedis(): void
    {
        $this->stop('redis');
    }

    /** @param list<string> $extraArgs appended to the saved command line, e.g. ['--requirepass', 'x'] */
    public function startRedis(array $extraArgs = []): void
    {
        $this->restart('redis', $extraArgs);
        $this->waitFor('Redis', fn (): bool => $this->redisAnswers());
    }

    /** Stops both servers and removes the scratch directory. */
    public function destroy(): void
    {
        if ($this->destroyed) {
            return;
        }
        $this->destroyed = true;
        try {
            // Servers restarted here are this process's children: stopped and
            // reaped here, since services.sh would wait on them as zombies.
            foreach (array_keys($this->children) as $server) {
                $this->stop($server);
            }
        } finally {
            $this->exec([self::servicesScript(), 'stop', $this->dir]);
        }
    }

    private function stop(string $server): void
    {
        $pid = $this->pid($server);
        if ($pid === null) {
            return;
        }
        $this->commands[$server] ??= $this->commandLine($pid);
        posix_kill($pid, SIGTERM);
        $this->waitFor("$server ($pid) to exit", fn (): bool => !$this->alive($server, $pid));
        if (isset($this->children[$server])) {
            proc_close($this->children[$server]);
            unset($this->children[$server]);
        }
    }

    /** @param list<string> $extraArgs */
    private function restart(string $server, array $extraArgs = []): void
    {
        $command = $this->commands[$server] ?? throw new RuntimeException("$server was never stopped");
        $null = ['file', '/dev/null', 'r+'];
        $child = proc_open(array_merge($command, $extraArgs), [0 => $null, 1 => $null, 2 => $null], $pipes);
        if ($child === false) {
            throw new RuntimeException("Cannot start $server again");
        }
        $this->children[$server] = $child;
        // mariadbd writes its own pid file; Redis runs without one, as services.sh starts it.
        file_put_contents("{$this->dir}/$server.pid", proc_get_status($child)['pid'] . "\n");
    }

    private function pid(string $server): ?int
    {
        $file = "{$this->dir}/$server.pid";
        $pid = is_file($file) ? (int) file_get_contents($file) : 0;

        return $pid > 0 && posix_kill($pid, 0) ? $pid : null;
    }

    /** A child of ours must be reaped to disappear; one started by services.sh is reaped by init. */
    private function alive(string $server, int $pid): bool
    {
        if (isset($this->children[$server])) {
            return proc_get_status($this->children[$server])['running'];
        }
        // kill(pid, 0) also succeeds on a zombie, which /proc shows in state Z.
        if (!posix_kill($pid, 0)) {
            return false;
        }
        $stat = (string) file_get_contents("/proc/$pid/stat");

        return !preg_match('/^\d+ \(.*\) Z/s', $stat);
    }

    /** @return list<string> */
    private function commandLine(int $pid): array
    {
        $raw = file_get_contents("/proc/$pid/cmdline");
        if ($raw === false || $raw === '') {
            throw new RuntimeException("Cannot read the command line of $pid");
        }

        return explode("\0", rtrim($raw, "\0"));
    }

    private function mariadbAnswers(): bool
    {
        try {
            new \PDO($this->mysqlDsn(), $this->env['RAPIER_TEST_MYSQL_USER'], $this->env['RAPIER_TEST_MYSQL_PASSWORD']);

            return true;
        } catch (\PDOException) {
            return false;
        }
    }

    /** Accepting connections is enough: this runs before and after a password is set. */
    private function redisAnswers(): bool
    {
        try {
            return (new \Redis())->connect('127.0.0.1', $this->redisPort(), 1.0);
        } catch (\RedisException) {
            return false;
        }
    }

    private function waitFor(string $what, callable $ready): void
    {
        $deadline = microtime(true) + self::WAIT_SECONDS;
        while (!$ready()) {
            if (microtime(true) > $deadline) {
                throw new RuntimeException("Gave up waiting for $what after " . self::WAIT_SECONDS . ' s');
            }
            usleep(50_000);
        }
    }

    /** @param list<string> $command */
    private function exec(array $command): void
    {
        $child = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if ($child === false) {
            throw new RuntimeException("Cannot run {$command[0]}");
        }
        $output = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        $status = proc_close($child);
        if ($status !== 0) {
            throw new RuntimeException(implode(' ', $command) . " failed with status $status:\n$output");
        }
    }

    private static function servicesScript(): string
    {
        return dirname(__DIR__, 2) . '/scripts/services.sh';
    }
}
