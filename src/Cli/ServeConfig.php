<?php

declare(strict_types=1);

namespace Rapier\Cli;

/**
 * The settings of `rapier serve`: the command line over the --config file
 * (a PHP file returning an array of the same options, underscores or
 * dashes), over the defaults. Relative paths are taken from the current
 * directory on the command line and from the config file's directory in it.
 */
final class ServeConfig
{
    /** Options of `rapier serve` (and their kinds) as Arguments::parse() takes them. */
    public const SPEC = [
        'host' => Arguments::VALUE,
        'port' => Arguments::VALUE,
        'workers' => Arguments::VALUE,
        'task-workers' => Arguments::VALUE,
        'max-requests' => Arguments::VALUE,
        'concurrency' => Arguments::VALUE,
        'queue-timeout' => Arguments::VALUE,
        'latency-target' => Arguments::VALUE,
        'slowlog-timeout' => Arguments::VALUE,
        'document-root' => Arguments::VALUE,
        'watch' => Arguments::FLAG,
        'watch-poll' => Arguments::FLAG,
        'daemon' => Arguments::FLAG,
        'pid-file' => Arguments::VALUE,
        'log-file' => Arguments::VALUE,
        'config' => Arguments::VALUE,
        'metrics' => Arguments::VALUE,
        'tls-cert' => Arguments::VALUE,
        'tls-key' => Arguments::VALUE,
        'tls-client-ca' => Arguments::VALUE,
        'tls-crl' => Arguments::VALUE,
        'http-port' => Arguments::VALUE,
        'http2' => Arguments::FLAG,
        // Internal: the process a --daemon start launches, which must not detach again.
        'foreground' => Arguments::FLAG,
    ];

    /** Integer options and their ranges. */
    private const INTS = [
        'port' => [1, 65535],
        'http-port' => [1, 65535],
        'workers' => [0, 1024],
        'task-workers' => [0, 1024],
        'max-requests' => [0, PHP_INT_MAX],
        'concurrency' => [0, 1000000],
    ];
    /** Options in seconds (fractions allowed). */
    private const SECONDS = ['queue-timeout', 'latency-target', 'slowlog-timeout'];
    private const PATHS = ['app', 'document-root', 'pid-file', 'log-file', 'tls-cert', 'tls-key', 'tls-client-ca', 'tls-crl'];
    private const FLAGS = ['watch', 'watch-poll', 'daemon', 'http2'];
    /** Keys a config file may hold besides the command-line options. */
    private const CONFIG_ONLY = ['app', 'server', 'tables'];

    /**
     * @param array<string, mixed> $server extra Rapier\Http\Server options from the config file
     * @param array<string, array{size: int, columns: array<string, string>}> $tables shared tables from the config file
     */
    private function __construct(
        public readonly string $app,
        public readonly string $host,
        public readonly int $port,
        public readonly int $workers,
        public readonly int $taskWorkers,
        public readonly int $maxRequests,
        public readonly ?int $concurrency,
        public readonly ?float $queueTimeout,
        public readonly ?float $latencyTarget,
        public readonly ?float $slowlogTimeout,
        public readonly ?string $documentRoot,
        public readonly bool $watch,
        public readonly bool $watchPoll,
        public readonly bool $daemon,
        public readonly string $pidFile,
        public readonly ?string $logFile,
        public readonly ?string $configFile,
        public readonly array $server,
        public readonly ?string $metrics,
        public readonly ?string $tlsCert,
        public readonly ?string $tlsKey,
        public readonly ?string $tlsClientCa,
        public readonly ?string $tlsCrl,
        public readonly ?int $httpPort,
        public readonly array $tables,
        public readonly bool $http2,
    ) {
    }

    /** @throws CliException */
    public static function fromArguments(Arguments $args, string $cwd): self
    {
        $s = self::merge($args, $cwd);
        $app = $s['app'] ?? throw CliException::usage('serve needs an APP: a PHP file returning the app, or a project directory');
        if (count($args->positional) > 1) {
            throw CliException::usage('serve takes one APP, got ' . count($args->positional));
        }
        $config = new self(
            $app,
            (string) ($s['host'] ?? '127.0.0.1'),
            $s['port'] ?? 8080,
            $s['workers'] ?? self::cpuCount(),
            $s['task-workers'] ?? 0,
            $s['max-requests'] ?? 0,
            $s['concurrency'] ?? null,
            $s['queue-timeout'] ?? null,
            $s['latency-target'] ?? null,
            $s['slowlog-timeout'] ?? null,
            $s['document-root'] ?? null,
            ($s['watch'] ?? false) || ($s['watch-poll'] ?? false),
            $s['watch-poll'] ?? false,
            ($s['daemon'] ?? false) && !isset($args->options['foreground']),
            $s['pid-file'] ?? self::defaultPidFile($app),
            $s['log-file'] ?? null,
            $s['config'] ?? null,
            $s['server'] ?? [],
            $s['metrics'] ?? null,
            $s['tls-cert'] ?? null,
            $s['tls-key'] ?? null,
            $s['tls-client-ca'] ?? null,
            $s['tls-crl'] ?? null,
            $s['http-port'] ?? null,
            $s['tables'] ?? [],
            $s['http2'] ?? false,
        );
        if ($config->metrics !== null && !str_starts_with($config->metrics, '/')) {
            throw CliException::usage("--metrics must be a path starting with /, got '{$config->metrics}'");
        }
        if ($config->tlsKey !== null && !$config->servesHttps()) {
            throw CliException::usage('--tls-key needs --tls-cert (a key alone serves no HTTPS; the --tls-cert file may hold the key too)');
        }
        if ($config->tlsClientCa !== null && !$config->servesHttps()) {
            throw CliException::usage('--tls-client-ca needs --tls-cert (client certificates are asked for in the TLS handshake)');
        }
        if ($config->tlsCrl !== null && $config->tlsClientCa === null && !isset($config->server['tls_client_ca_file'])) {
            throw CliException::usage('--tls-crl needs --tls-client-ca (the lists revoke client certificates of those authorities)');
        }
        if ($config->httpPort !== null && !$config->servesHttps()) {
            throw CliException::usage('--http-port needs --tls-cert (it adds a plain-HTTP port that redirects to HTTPS; '
                . 'for plain HTTP alone use --port)');
        }
        if ($config->httpPort === $config->port) {
            throw CliException::usage("--http-port must differ from --port ({$config->port}), which speaks HTTPS");
        }
        if ($config->workers === 0 && ($config->watch || $config->daemon)) {
            throw CliException::usage('--watch, --watch-poll and --daemon need --workers 1 or more (a reload starts new workers)');
        }
        $recycles = $config->maxRequests > 0 || (int) ($config->server['max_requests'] ?? 0) > 0
            || (int) ($config->server['max_memory'] ?? 0) > 0;
        if ($config->workers === 0 && $recycles) {
            // The process would stop after its last request with nothing to replace it.
            throw CliException::usage('--max-requests and max_memory need --workers 1 or more (a recycled worker is replaced by the master)');
        }

        return $config;
    }

    /**
     * The command line over the config file, checked and with paths made
     * absolute; used by the control commands too, to find the pid file.
     *
     * @return array<string, mixed> by option name with dashes
     * @throws CliException
     */
    public static function merge(Arguments $args, string $cwd): array
    {
        $settings = [];
        $config = $args->options['config'] ?? null;
        if (is_string($config)) {
            $config = self::absolute($config, $cwd);
            $settings = self::readConfig($config);
            $settings['config'] = $config;
        }
        foreach ($args->options as $name => $value) {
            // The control commands' own options (--json, --timeout) are theirs to read.
            if (isset(self::SPEC[$name]) && $name !== 'config' && $name !== 'foreground') {
                $settings[$name] = self::check($name, $value, $cwd, null);
            }
        }
        if (isset($args->positional[0])) {
            $settings['app'] = self::absolute($args->positional[0], $cwd);
        }

        return $settings;
    }

    /** The pid file when neither --pid-file nor the config names one: .rapier.pid in the app's directory, or here. */
    public static function defaultPidFile(?string $app): string
    {
        if ($app === null) {
            return getcwd() . '/.rapier.pid';
        }

        return (is_dir($app) ? rtrim($app, '/') : dirname($app)) . '/.rapier.pid';
    }

    /**
     * Rapier\Http\Server's options. $serial: the app needs one request at a
     * time per worker (the framework adapters); --concurrency overrides it.
     * $requiresHttp2: the app's clients speak only HTTP/2 (gRPC), so http2
     * is on whatever --http2 and the config say. $readsBodyAsItArrives: the
     * app reads request bodies while they arrive (gRPC), so request_buffering
     * is off unless the config's 'server' array says otherwise (the app
     * still works with it on, only one way at a time).
     *
     * @return array<string, mixed>
     * @throws CliException
     */
    public function serverOptions(bool $serial, bool $requiresHttp2 = false, bool $readsBodyAsItArrives = false): array
    {
        $options = ['workers' => $this->workers];
        if ($this->taskWorkers > 0) {
            $options['task_workers'] = $this->taskWorkers;
        }
        if ($this->maxRequests > 0) {
            $options['max_requests'] = $this->maxRequests;
        }
        $concurrency = $this->concurrency ?? ($serial ? 1 : null);
        if ($concurrency !== null) {
            $options['concurrency'] = $concurrency;
        }
        if ($this->queueTimeout !== null) {
            if (!$concurrency) {
                throw CliException::usage('--queue-timeout needs --concurrency N: without a limit on requests handled at once, none waits');
            }
            $options['queue_timeout'] = $this->queueTimeout;
        }
        if ($this->latencyTarget !== null) {
            if ($concurrency === null || $concurrency < 2) {
                throw CliException::usage('--latency-target needs --concurrency N above 1: it adapts the limit between 1 and N');
            }
            $options['latency_target'] = $this->latencyTarget;
        }
        if ($this->slowlogTimeout !== null) {
            $options['slowlog_timeout'] = $this->slowlogTimeout;
        }
        if ($this->documentRoot !== null) {
            $options['document_root'] = $this->documentRoot;
        }
        if ($this->workers > 0) {
            $options['pid_file'] = $this->pidFile;
        }
        if ($this->logFile !== null) {
            $options['error_log'] = $this->logFile;
        }
        $options += $this->tlsFiles();
        if ($this->httpPort !== null) {
            $options['http_port'] = $this->httpPort;
        }
        if ($this->http2 || $requiresHttp2) {
            $options['http2'] = true;
        }

        $options += $this->server;
        if ($readsBodyAsItArrives) {
            $options += ['request_buffering' => false];
        }

        return $options;
    }

    /**
     * The TLS files given by option, by the Server option each sets.
     *
     * @return array<string, string>
     */
    public function tlsFiles(): array
    {
        return array_filter(['tls_cert_file' => $this->tlsCert, 'tls_key_file' => $this->tlsKey,
            'tls_client_ca_file' => $this->tlsClientCa, 'tls_crl_file' => $this->tlsCrl], fn (?string $file) => $file !== null);
    }

    /** Whether the port speaks HTTPS: a certificate from --tls-cert, or tls_cert_file in the config's 'server' array. */
    public function servesHttps(): bool
    {
        return $this->tlsCert !== null || isset($this->server['tls_cert_file']);
    }

    /** The URL of the server's root, as the banner and --daemon print it. */
    public function url(): string
    {
        return sprintf('%s://%s:%d', $this->servesHttps() ? 'https' : 'http',
            str_contains($this->host, ':') ? "[{$this->host}]" : $this->host, $this->port);
    }

    /** @return array<string, mixed> */
    private static function readConfig(string $file): array
    {
        if (!is_file($file)) {
            throw new CliException("config file not found: $file");
        }
        try {
            $values = (static fn (string $__file): mixed => require $__file)($file);
        } catch (\Throwable $e) {
            throw new CliException(sprintf('config file %s failed to load: %s', $file, strtok($e->getMessage(), "\n")));
        }
        if (!is_array($values)) {
            throw new CliException(sprintf('config file %s returned %s; expected an array of options', $file, get_debug_type($values)));
        }
        $settings = [];
        foreach ($values as $key => $value) {
            $name = str_replace('_', '-', (string) $key);
            if ($name === 'server') {
                if (!is_array($value)) {
                    throw new CliException("config file $file: 'server' must be an array of Rapier\\Http\\Server options");
                }
                $settings['server'] = $value;
                continue;
            }
            if ($name === 'tables') {
                $settings['tables'] = self::checkTables($value, $file);
                continue;
            }
            if (in_array($name, ['config', 'foreground'], true)
                    || (!isset(self::SPEC[$name]) && !in_array($name, self::CONFIG_ONLY, true))) {
                throw new CliException(sprintf("config file %s: unknown option '%s' (known: %s)", $file, $key,
                    implode(', ', array_map(fn ($n) => str_replace('-', '_', $n), self::configKeys()))));
            }
            $settings[$name] = self::check($name, $value, dirname($file), $file);
        }

        return $settings;
    }

    /**
     * The shape of the config's 'tables'; the sizes and column types are
     * checked when the tables are made (Rapier\App\Tables::create()).
     *
     * @return array<string, array{size: int, columns: array<string, string>}>
     */
    private static function checkTables(mixed $value, string $file): array
    {
        $shape = "must map table names to ['size' => rows, 'columns' => [name => 'int', 'float' or 'string:N']]";
        if (!is_array($value)) {
            throw new CliException("config file $file: 'tables' $shape, got " . get_debug_type($value));
        }
        foreach ($value as $name => $table) {
            if (!is_string($name) || $name === '') {
                throw new CliException("config file $file: 'tables' $shape; key " . var_export($name, true) . ' is not a name');
            }
            if (!is_array($table) || !is_int($table['size'] ?? null) || !is_array($table['columns'] ?? null)
                    || array_diff(array_keys($table), ['size', 'columns']) !== []) {
                throw new CliException("config file $file: 'tables' $shape; '$name' is not");
            }
        }

        return $value;
    }

    /** @return list<string> */
    private static function configKeys(): array
    {
        return [...array_diff(array_keys(self::SPEC), ['config', 'foreground']), ...self::CONFIG_ONLY];
    }

    /** $file: the config file the value comes from, null for the command line. */
    private static function check(string $name, mixed $value, string $base, ?string $file): mixed
    {
        $fail = static fn (string $what): CliException => $file === null
            ? CliException::usage("--$name $what")
            : new CliException(sprintf("config file %s: '%s' %s", $file, str_replace('-', '_', $name), $what));
        if (isset(self::INTS[$name])) {
            if (is_string($value) && preg_match('/^[0-9]{1,18}$/D', $value) === 1) {
                $value = (int) $value;
            }
            [$min, $max] = self::INTS[$name];
            if (!is_int($value) || $value < $min || $value > $max) {
                throw $fail(sprintf('must be an integer from %d to %s, got %s', $min, $max === PHP_INT_MAX ? 'up' : $max,
                    is_scalar($value) ? var_export($value, true) : get_debug_type($value)));
            }

            return $value;
        }
        if (in_array($name, self::SECONDS, true)) {
            if (is_string($value) && is_numeric($value)) {
                $value = (float) $value;
            }
            if (!is_int($value) && !is_float($value) || !($value > 0) || $value > 9e9) {
                throw $fail(sprintf('must be a number of seconds greater than 0 and at most 9e9, got %s',
                    is_scalar($value) ? var_export($value, true) : get_debug_type($value)));
            }

            return (float) $value;
        }
        if (in_array($name, self::FLAGS, true)) {
            if (!is_bool($value)) {
                throw $fail('must be true or false');
            }

            return $value;
        }
        if (!is_string($value) || $value === '') {
            throw $fail('must be a non-empty string');
        }

        return in_array($name, self::PATHS, true) ? self::absolute($value, $base) : $value;
    }

    private static function absolute(string $path, string $base): string
    {
        return str_starts_with($path, '/') ? $path : rtrim($base, '/') . '/' . $path;
    }

    /** Online CPUs, as the server counts them by default. */
    private static function cpuCount(): int
    {
        $online = @file_get_contents('/sys/devices/system/cpu/online');
        if ($online === false) {
            return 1;
        }
        $count = 0;
        foreach (explode(',', trim($online)) as $range) {
            $ends = explode('-', $range);
            $count += count($ends) === 2 ? (int) $ends[1] - (int) $ends[0] + 1 : 1;
        }

        return max(1, $count);
    }
}
