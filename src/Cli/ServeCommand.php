<?php

declare(strict_types=1);

namespace Rapier\Cli;

use Rapier\Adapter\Adapter;
use Rapier\Adapter\Stoppable;
use Rapier\App\AppException;
use Rapier\App\AppLoader;
use Rapier\App\Messages;
use Rapier\App\Tables;
use Rapier\App\Tasks;
use Rapier\Cli\Watch\Watcher;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\Http\Server;
use Rapier\Metrics\Snapshots;
use Rapier\Metrics\WorkerMetrics;
use Throwable;
use ValueError;

/**
 * `rapier serve APP`: checks APP loads (in a probe process), then runs a
 * Rapier\Http\Server in this process as the master. APP is loaded again
 * in every worker, in workerStart: the master never loads it, so a worker
 * forked by a reload, a recycle or a restart runs the code on disk now.
 */
final class ServeCommand
{
    /** SIGKILL, for a worker that must end before it is counted as ready (bootWorker()). */
    private const SIGKILL = 9;

    /** @param list<string> $args @throws CliException */
    public static function run(array $args): int
    {
        $parsed = Arguments::parse($args, ServeConfig::SPEC);
        $config = ServeConfig::fromArguments($parsed, (string) getcwd());
        if (!file_exists($config->app)) {
            throw new CliException("APP not found: {$config->app}");
        }
        self::checkTlsFiles($config);
        self::checkPidFile($config);
        self::createTables($config);
        if ($config->daemon) {
            return Daemon::start($config, $args);
        }
        if ($config->workers === 0) {
            // No master and no reload: the one process loads the app itself.
            $adapter = self::load($config->app);
            $app = ['kind' => AppLoader::describe($adapter), 'serial' => AppLoader::isSerial($adapter),
                'http2' => AppLoader::requiresHttp2($adapter), 'streams_body' => AppLoader::readsBodyAsItArrives($adapter)];
        } else {
            $adapter = null;
            $app = AppProbe::check($config->app, $config->tables);
        }
        self::checkPort($config);
        $options = $config->serverOptions($app['serial'], $app['http2'], $app['streams_body']);
        try {
            $server = new Server($config->host, $config->port, $options);
        } catch (ValueError $e) {
            throw CliException::usage('invalid server option: ' . $e->getMessage());
        }
        $metrics = self::metrics($config);
        $server->on('workerStart', static function (Server $server, int $workerId) use (&$adapter, $config, $metrics): void {
            Tasks::attach($server);
            Messages::attach($server);
            $adapter = self::bootWorker($adapter, $config->app, $workerId, $config->workers > 0);
            if ($workerId < max(1, $config->workers)) {
                // Task workers (ids from --workers up) serve no HTTP: no metrics of their own.
                $metrics?->start($server, $workerId);
            }
        });
        $server->on('request', static function (Request $request, Response $response) use (&$adapter, $metrics): void {
            if ($metrics !== null) {
                $metrics->handle($request, $response, $adapter);
                return;
            }
            $adapter->handle($request, $response);
        });
        // An app with long-lived responses (a gRPC server's Health/Watch streams) ends them as the stop begins.
        $server->on('workerStopping', static function () use (&$adapter): void {
            if ($adapter instanceof Stoppable) {
                $adapter->stopping();
            }
        });
        if ($metrics !== null) {
            $server->on('workerStop', static fn (): mixed => $metrics->stop());
        }
        if ($config->taskWorkers > 0) {
            $server->on('task', Tasks::handle(...));
        }
        $server->on('message', Messages::handle(...));
        $terminal = stream_isatty(STDOUT);
        echo Banner::render($config, $app['kind'], $options, $terminal);
        if ($config->watch) {
            $watcher = Watcher::forServer($config, getmypid());
            $server->addProcess(static fn (): int => $watcher->run());
        }
        try {
            $server->start();
        } catch (\Rapier\Exception $e) {
            throw new CliException(self::reword($e->getMessage(), $config));
        }

        return 0;
    }

    /** --metrics: a fresh run directory beside the pid file, read by whichever worker is scraped. */
    private static function metrics(ServeConfig $config): ?WorkerMetrics
    {
        if ($config->metrics === null) {
            return null;
        }
        $snapshots = Snapshots::forPidFile($config->pidFile);
        try {
            $snapshots->reset();
        } catch (\RuntimeException $e) {
            throw new CliException(lcfirst($e->getMessage()));
        }

        return new WorkerMetrics($config->metrics, $snapshots, $config->workers > 0 ? StatusSocket::forPidFile($config->pidFile) : null);
    }

    /**
     * The config's shared tables, made in this process before any worker
     * is forked from it, so that all of them share the rows, across
     * reloads too.
     */
    private static function createTables(ServeConfig $config): void
    {
        try {
            Tables::create($config->tables);
        } catch (ValueError | \Rapier\Exception $e) {
            throw new CliException("config file {$config->configFile}: 'tables': " . $e->getMessage());
        }
    }

    /** @throws CliException */
    private static function load(string $app): Adapter
    {
        try {
            return AppLoader::load($app);
        } catch (AppException $e) {
            throw new CliException($e->getMessage());
        }
    }

    /**
     * In each worker: load the app (unless this single process already
     * did) and boot it. A worker that cannot says why in one line and
     * ends before the master counts it as ready, which makes the master
     * abandon a reload (the old workers keep serving), keep the old worker
     * of a recycle, or restart the worker with back-off. The first start
     * never gets here with a broken app: AppProbe checked it.
     */
    private static function bootWorker(?Adapter $adapter, string $app, int $workerId, bool $inWorker): Adapter
    {
        try {
            $adapter ??= AppLoader::load($app);
            $adapter->boot();

            return $adapter;
        } catch (Throwable $e) {
            $reason = $e instanceof AppException ? $e->getMessage()
                : sprintf('%s: %s in %s:%d', get_class($e), strtok($e->getMessage(), "\n"), $e->getFile(), $e->getLine());
            fwrite(STDERR, ($inWorker ? "rapier: worker $workerId cannot start: " : 'rapier: cannot start: ') . "$reason\n");
            if ($inWorker && function_exists('posix_kill')) {
                // Not exit(): the server reports a worker ready once workerStart returns, even by exit().
                posix_kill(getmypid(), self::SIGKILL);
            }
            exit(CliException::FAILURE);
        }
    }

    /**
     * The server checks the port too, but only once the banner is out and
     * the app probed; checking first gives the one-line error alone.
     * Without SO_REUSEPORT, so a server already there makes it fail.
     */
    private static function checkPort(ServeConfig $config): void
    {
        $host = str_contains($config->host, ':') ? "[{$config->host}]" : $config->host;
        foreach (['' => $config->port, ' (http_port)' => $config->httpPort] as $which => $port) {
            if ($port === null) {
                continue;
            }
            $socket = @stream_socket_server("tcp://$host:$port", $errno, $error);
            if ($socket === false) {
                throw new CliException(self::reword("Cannot listen on {$config->host}:$port$which: $error", $config));
            }
            fclose($socket);
        }
    }

    /**
     * The server checks the files too, but only once the banner is out and
     * the app probed; checking first gives the common mistake, a path to no
     * readable file, the server's own error line alone. What the files hold
     * is left to the server.
     */
    private static function checkTlsFiles(ServeConfig $config): void
    {
        foreach ($config->tlsFiles() as $option => $file) {
            if (!is_readable($file)) {
                throw new CliException(sprintf('cannot serve HTTPS: %s %s: %s', $option, $file,
                    file_exists($file) ? 'Permission denied' : 'No such file or directory'));
            }
        }
    }

    /** The master refuses a pid file naming a live server too, but after the banner. */
    private static function checkPidFile(ServeConfig $config): void
    {
        $pid = (int) trim((string) @file_get_contents($config->pidFile));
        if ($config->workers > 0 && $pid > 0 && $pid !== getmypid() && Process::runsSameProgram($pid)) {
            throw new CliException(self::reword('Cannot start: another server is running', $config));
        }
    }

    private static function reword(string $message, ServeConfig $config): string
    {
        // The server's message names the port: --port's, or --http-port's with "(http_port)".
        $plain = str_contains($message, ' (http_port): ');
        $port = $plain ? $config->httpPort : $config->port;
        $where = "{$config->host}:$port";
        if (str_starts_with($message, 'Cannot listen on') && stripos($message, 'in use') !== false) {
            return "port $port is already in use on {$config->host}: another server is listening there "
                . '(stop it, or choose another ' . ($plain ? '--http-port' : '--port') . ')';
        }
        if (str_starts_with($message, 'Cannot listen on') && stripos($message, 'assign requested address') !== false) {
            return "cannot listen on $where: {$config->host} is not an address of this machine (--host)";
        }
        if (str_starts_with($message, 'Cannot listen on') && stripos($message, 'permission denied') !== false) {
            return "cannot listen on $where: permission denied (ports below 1024 need root or CAP_NET_BIND_SERVICE)";
        }
        if (str_starts_with($message, 'Cannot start: another server is running')) {
            $pid = trim((string) @file_get_contents($config->pidFile));
            return "a server is already running with pid file {$config->pidFile}" . ($pid !== '' ? " (pid $pid)" : '')
                . ': `rapier stop` it first, or use another --pid-file';
        }
        if (str_starts_with($message, 'The server stopped: a worker could not start')) {
            return 'the server stopped: a worker could not start (see the lines above)';
        }

        return lcfirst($message);
    }
}
