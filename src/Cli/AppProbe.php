<?php

declare(strict_types=1);

namespace Rapier\Cli;

use Rapier\App\AppException;
use Rapier\App\AppLoader;
use Rapier\App\Tables;
use Throwable;

/**
 * Loads APP in a separate PHP process to learn whether it can be served
 * and what it is, without loading it here: the master must stay free of
 * the app's code, so that the workers a reload forks load the files as
 * they are on disk now. Fatal errors (a class declared twice, a syntax
 * error) end only the probe, and come back as the reason.
 */
final class AppProbe
{
    /** A probe that takes longer than this is stuck (a require that waits on the network...). */
    private const TIMEOUT_SECONDS = 60;

    /**
     * @param array<string, array{size: int, columns: array<string, string>}> $tables the config's shared
     *        tables, made in the probe too: an app may take them as it loads
     * @return array{kind: string, serial: bool, http2: bool, streams_body: bool} what AppLoader::describe(),
     *         isSerial(), requiresHttp2() and readsBodyAsItArrives() say
     * @throws CliException with the one-line reason APP cannot be served
     */
    public static function check(string $app, array $tables = []): array
    {
        $stderr = tmpfile();
        $proc = proc_open(Interpreter::rapier('__probe', $app, json_encode($tables, JSON_THROW_ON_ERROR)), [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => $stderr], $pipes);
        if ($proc === false) {
            throw new CliException('cannot start a PHP process to load APP');
        }
        stream_set_timeout($pipes[1], self::TIMEOUT_SECONDS);
        $out = (string) stream_get_contents($pipes[1]);
        if (stream_get_meta_data($pipes[1])['timed_out']) {
            proc_terminate($proc, 9);
            throw new CliException(sprintf('%s did not finish loading within %d s (APP must return the app, '
                . 'not serve it: does it call $server->start()?)', $app, self::TIMEOUT_SECONDS));
        }
        fclose($pipes[1]);
        $status = proc_close($proc);
        $result = json_decode(trim((string) strrchr("\n" . trim($out), "\n")), true);
        if (is_array($result) && isset($result['error'])) {
            throw new CliException((string) $result['error']);
        }
        if ($status === 0 && is_array($result) && isset($result['kind'])) {
            return ['kind' => (string) $result['kind'], 'serial' => (bool) ($result['serial'] ?? false),
                'http2' => (bool) ($result['http2'] ?? false), 'streams_body' => (bool) ($result['streams_body'] ?? false)];
        }
        rewind($stderr);
        $lines = array_values(array_filter(array_map('trim', explode("\n", (string) stream_get_contents($stderr)))));
        throw new CliException(sprintf('%s could not be loaded (exit status %d)%s', $app, $status,
            $lines === [] ? '' : ': ' . end($lines)));
    }

    /** The probe process: prints one JSON line, {"kind":..., "serial":..., "http2":..., "streams_body":...} or {"error":...}. */
    public static function child(string $app, string $tables = '[]'): int
    {
        ini_set('display_errors', '0');
        $done = false;
        register_shutdown_function(static function () use (&$done, $app): void {
            if ($done) {
                return;
            }
            while (ob_get_level() > 0) {
                ob_end_clean();
            }
            $error = error_get_last();
            $reason = $error === null ? 'it exited while loading'
                : sprintf('%s in %s:%d', strtok($error['message'], "\n"), $error['file'], $error['line']);
            echo json_encode(['error' => "$app failed to load: $reason"]), "\n";
        });
        // Output the app prints while loading is not the answer.
        ob_start();
        try {
            Tables::create(json_decode($tables, true, 512, JSON_THROW_ON_ERROR));
            $adapter = AppLoader::load($app);
            $result = ['kind' => AppLoader::describe($adapter), 'serial' => AppLoader::isSerial($adapter),
                'http2' => AppLoader::requiresHttp2($adapter), 'streams_body' => AppLoader::readsBodyAsItArrives($adapter)];
        } catch (AppException $e) {
            $result = ['error' => $e->getMessage()];
        } catch (Throwable $e) {
            $result = ['error' => sprintf('%s cannot be served: %s: %s', $app, get_class($e), strtok($e->getMessage(), "\n"))];
        }
        ob_end_clean();
        $done = true;
        echo json_encode($result), "\n";

        return isset($result['error']) ? 1 : 0;
    }
}
