<?php

declare(strict_types=1);

namespace Rapier\Cli;

/** bin/rapier: picks the command, and turns every failure into one line on stderr and an exit status. */
final class Main
{
    public const USAGE = <<<'TXT'
        Usage:
          rapier serve APP [options]        serve APP (a PHP file returning the app, or a project directory)
          rapier stop   [APP] [--pid-file F] [--timeout S]   stop the server gracefully and wait for it
          rapier reload [APP] [--pid-file F] [--timeout S]   start new workers, then retire the old ones
          rapier status [APP] [--pid-file F] [--json]        the workers: pid, uptime, requests, memory...
          rapier --version
          rapier help

        APP returns a callable(Rapier\Http\Request, Rapier\Http\Response), a PSR-15
        RequestHandlerInterface, a Laravel or Lumen application, a Symfony kernel or a
        Slim\App. A directory is searched for bootstrap/app.php (Laravel, Lumen),
        public/index.php with src/Kernel.php (Symfony), app.php or index.php.

        serve options:
          --host H            address to listen on (127.0.0.1)
          --port P            port (8080)
          --workers N         worker processes (one per CPU); 0 serves in this one process
          --task-workers N    task worker processes (0)
          --max-requests N    recycle a worker after N requests (0: never)
          --concurrency N     requests handled at once per worker (0: unlimited;
                              1 by default for Laravel, Lumen, Symfony and Slim)
          --queue-timeout S   answer 503 to a request that waited S seconds for one
                              of those (off; needs a concurrency limit)
          --latency-target S  lower the concurrency limit while the median handler
                              takes longer than S seconds, raise it back when
                              shorter (off; needs --concurrency above 1)
          --slowlog-timeout S log where a request's handler waits once it has run
                              S seconds (off)
          --document-root DIR serve the files under DIR before asking the app
          --tls-cert F        serve HTTPS, and only HTTPS, on the port: F is a PEM
                              file with the certificate, then its chain
          --tls-key F         the certificate's private key, a PEM file (the
                              --tls-cert file)
          --tls-client-ca F   ask every client for a certificate signed by an
                              authority in F (PEM) and refuse clients without
                              one: mutual TLS (needs --tls-cert)
          --tls-crl F         refuse client certificates revoked by the lists in F
                              (PEM, a CRL per authority; needs --tls-client-ca)
          --http-port P       also listen for plain HTTP on P, redirecting every
                              request to HTTPS (needs --tls-cert)
          --http2             also speak HTTP/2: h2 by ALPN with --tls-cert, and
                              prior knowledge (h2c) on plain HTTP
          --metrics PATH      answer GET PATH (/metrics) with Prometheus metrics
                              of all workers, before the app
          --watch             reload the workers when a PHP file of the app changes
          --watch-poll        the same, finding changes by scanning the files every
                              0.5 s: where inotify sees none (Docker Desktop bind
                              mounts, WSL2's /mnt/c, NFS, vboxsf)
          --daemon            run in the background; returns once the server is up
          --pid-file F        the master's pid file (APP's directory/.rapier.pid);
                              its status socket is F.sock
          --log-file F        the server's log (the daemon's output goes there too)
          --config F          a PHP file returning an array of these options (host,
                              port, workers, task_workers, ..., app, and 'server' for
                              further Rapier\Http\Server options)

        See docs/cli.md.

        TXT;

    /** @param list<string> $argv */
    public static function run(array $argv): int
    {
        $args = array_slice($argv, 1);
        $command = array_shift($args) ?? 'help';
        try {
            if (in_array($command, ['help', '--help', '-h'], true)) {
                echo self::USAGE;
                return 0;
            }
            Extension::require(array_slice($argv, 1));

            return match ($command) {
                '--version', '-V', 'version' => self::version(),
                'serve' => ServeCommand::run($args),
                'stop', 'reload', 'status' => ControlCommand::run($command, $args),
                '__probe' => AppProbe::child($args[0] ?? '', $args[1] ?? '[]'),
                default => throw CliException::usage("unknown command '$command'"),
            };
        } catch (CliException $e) {
            fwrite(STDERR, 'rapier: ' . $e->getMessage() . "\n");

            return $e->getCode() > 0 ? $e->getCode() : CliException::FAILURE;
        }
    }

    private static function version(): int
    {
        printf("rapier %s (PHP %s)\n", phpversion('rapier'), PHP_VERSION);

        return 0;
    }
}
