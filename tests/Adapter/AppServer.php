<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

use PHPUnit\Framework\SkippedTestError;
use Rapier\Tests\Support\Cli;
use RuntimeException;

/**
 * One of the apps in tests/apps/ served on a free loopback port, either by
 * Rapier (`rapier serve`: the framework adapter in one worker) or by
 * nginx in front of php-fpm (the app's public/index.php, one php-fpm child),
 * so that the same test cases run against both.
 *
 * Everything the servers and the app write (configs, sockets, logs,
 * sessions, uploads, caches) lives in one temporary directory, removed by
 * stop(). Processes run in the foreground (no daemons), in the test run's
 * process group (a runner that stops the group stops them too), and are
 * stopped by the pids proc_open() returned, never by name.
 */
final class AppServer
{
    /** Laravel's first boot compiles its manifests; php-fpm and nginx start in well under a second. */
    private const START_TIMEOUT = 60;

    private const STOP_TIMEOUT = 15;

    private const FPM = '/usr/sbin/php-fpm8.2';

    private const NGINX = '/usr/sbin/nginx';

    /** @param list<resource> $procs */
    private function __construct(
        public readonly string $baseUrl,
        public readonly string $dir,
        private array $procs,
    ) {
    }

    /** A test run that ends early (an error, exit()) must not leave servers behind. */
    public function __destruct()
    {
        if ($this->procs !== []) {
            $this->stop();
        }
    }

    public static function start(string $app, string $mode): self
    {
        return match ($mode) {
            'rapier' => self::rapier($app),
            'fpm' => self::fpm($app),
            default => throw new RuntimeException("Unknown server mode $mode"),
        };
    }

    /**
     * `rapier serve tests/apps/NAME` with one worker; tests/apps/serve.php,
     * which builds the adapter itself, where bin/rapier is not there.
     * $serverOptions: Rapier\Http\Server options on top of serve's own,
     * given as the 'server' array of a --config file (bin/rapier only).
     *
     * @param array<string, mixed> $serverOptions
     */
    public static function rapier(string $app, array $serverOptions = []): self
    {
        $rapier = dirname(__DIR__, 2) . '/bin/rapier';
        if ($serverOptions !== [] && !is_file($rapier)) {
            throw new SkippedTestError('Server options need bin/rapier (its --config); tests/apps/serve.php takes none');
        }
        $dir = self::scratch($app);
        $port = Cli::freePort();
        $php = [PHP_BINARY, '-d', 'extension=' . Cli::extension(), '-d', 'display_errors=stderr'];
        $command = is_file($rapier)
            ? [$rapier, 'serve', self::apps() . "/$app", '--port', (string) $port, '--workers', '1', '--pid-file', "$dir/rapier.pid"]
            : [self::apps() . '/serve.php', $app, (string) $port];
        if ($serverOptions !== []) {
            file_put_contents("$dir/rapier-config.php",
                "<?php\n\nreturn " . var_export(['server' => $serverOptions], true) . ";\n");
            array_push($command, '--config', "$dir/rapier-config.php");
        }
        $server = new self("http://127.0.0.1:$port", $dir, [self::spawn([...$php, ...$command], $dir, 'rapier')]);
        $server->waitUntil(static fn (): bool => self::answers($port));

        return $server;
    }

    public static function fpm(string $app): self
    {
        foreach ([self::FPM, self::NGINX] as $binary) {
            if (!is_executable($binary)) {
                throw new SkippedTestError("$binary is not installed (Debian packages php8.2-fpm and nginx)");
            }
        }
        $dir = self::scratch($app);
        $port = Cli::freePort();
        file_put_contents("$dir/fpm.conf", self::fpmConfig($dir));
        file_put_contents("$dir/nginx.conf", self::nginxConfig($dir, self::apps() . "/$app/public", $port));
        $fpm = self::spawn([self::FPM, '--nodaemonize', '--allow-to-run-as-root', '--fpm-config', "$dir/fpm.conf"], $dir, 'fpm');
        $nginx = self::spawn([self::NGINX, '-p', $dir, '-e', "$dir/nginx-error.log", '-c', "$dir/nginx.conf"], $dir, 'nginx');
        $server = new self("http://127.0.0.1:$port", $dir, [$nginx, $fpm]);
        $server->waitUntil(static fn (): bool => file_exists("$dir/fpm.sock") && self::answers($port));

        return $server;
    }

    /** Stops the servers (SIGTERM, then SIGKILL after STOP_TIMEOUT) and removes the directory. */
    public function stop(): void
    {
        foreach ($this->procs as $proc) {
            proc_terminate($proc, 15);
        }
        $deadline = microtime(true) + self::STOP_TIMEOUT;
        foreach ($this->procs as $proc) {
            while (proc_get_status($proc)['running'] && microtime(true) < $deadline) {
                usleep(20000);
            }
            if (proc_get_status($proc)['running']) {
                proc_terminate($proc, 9);
            }
            proc_close($proc);
        }
        $this->procs = [];
        self::remove($this->dir);
    }

    /** The servers' own output and logs, for failure messages. */
    public function logs(): string
    {
        $logs = '';
        foreach (glob("$this->dir/*.{err,out,log}", GLOB_BRACE) ?: [] as $file) {
            $logs .= '--- ' . basename($file) . "\n" . file_get_contents($file);
        }

        return $logs;
    }

    private function waitUntil(callable $ready): void
    {
        $deadline = microtime(true) + self::START_TIMEOUT;
        while (!$ready()) {
            foreach ($this->procs as $proc) {
                if (!proc_get_status($proc)['running']) {
                    $logs = $this->logs();
                    $this->stop();
                    throw new RuntimeException("A server exited during startup\n$logs");
                }
            }
            if (microtime(true) > $deadline) {
                $logs = $this->logs();
                $this->stop();
                throw new RuntimeException('The server did not start within ' . self::START_TIMEOUT . " s\n$logs");
            }
            usleep(20000);
        }
    }

    /**
     * @param list<string> $command
     * @return resource
     */
    private static function spawn(array $command, string $dir, string $name)
    {
        $env = ['RAPIER_APP_STORAGE' => "$dir/storage"] + getenv();
        $proc = proc_open($command, [
            0 => ['file', '/dev/null', 'r'],
            1 => ['file', "$dir/$name.out", 'w'],
            2 => ['file', "$dir/$name.err", 'w'],
        ], $pipes, $dir, $env);
        if ($proc === false) {
            throw new RuntimeException('Cannot start ' . $command[0]);
        }

        return $proc;
    }

    private static function fpmConfig(string $dir): string
    {
        // One child: consecutive requests reach the same process, as with
        // the one Rapier worker; php-fpm starts each request clean anyway.
        return <<<CONF
            [global]
            pid = $dir/fpm.pid
            error_log = $dir/fpm.log
            daemonize = no

            [app]
            user = root
            group = root
            listen = $dir/fpm.sock
            pm = static
            pm.max_children = 1
            clear_env = no
            catch_workers_output = yes
            env[RAPIER_APP_STORAGE] = $dir/storage
            php_admin_value[error_log] = $dir/php.log
            php_admin_flag[log_errors] = on
            php_admin_flag[display_errors] = off
            CONF;
    }

    private static function nginxConfig(string $dir, string $root, int $port): string
    {
        return <<<CONF
            daemon off;
            master_process on;
            worker_processes 1;
            user root root;
            pid $dir/nginx.pid;
            error_log $dir/nginx-error.log;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path $dir/nginx-body;
                fastcgi_temp_path $dir/nginx-fastcgi;
                proxy_temp_path $dir/nginx-proxy;
                uwsgi_temp_path $dir/nginx-uwsgi;
                scgi_temp_path $dir/nginx-scgi;
                client_max_body_size 16m;
                server {
                    listen 127.0.0.1:$port;
                    root $root;
                    location / {
                        try_files \$uri /index.php\$is_args\$args;
                    }
                    location = /index.php {
                        include /etc/nginx/fastcgi_params;
                        fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
                        fastcgi_pass unix:$dir/fpm.sock;
                    }
                }
            }
            CONF;
    }

    private static function answers(int $port): bool
    {
        $socket = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, 1);
        if ($socket === false) {
            return false;
        }
        fwrite($socket, "GET /json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        $line = (string) fgets($socket);
        fclose($socket);

        return str_starts_with($line, 'HTTP/1.1 200');
    }

    private static function scratch(string $app): string
    {
        $dir = sys_get_temp_dir() . '/rapier-app-' . $app . '-' . bin2hex(random_bytes(4));
        mkdir("$dir/storage", 0777, true);

        return $dir;
    }

    private static function apps(): string
    {
        return dirname(__DIR__) . '/apps';
    }

    private static function remove(string $path): void
    {
        if (is_dir($path) && !is_link($path)) {
            foreach (scandir($path) ?: [] as $entry) {
                if ($entry !== '.' && $entry !== '..') {
                    self::remove("$path/$entry");
                }
            }
            @rmdir($path);
        } else {
            @unlink($path);
        }
    }
}
