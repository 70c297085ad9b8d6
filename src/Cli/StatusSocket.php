<?php

declare(strict_types=1);

namespace Rapier\Cli;

/**
 * The master's status channel, `<pid_file>.sock`: a Unix stream socket
 * that sends one JSON document to each client that connects, then closes
 * (docs/design/processes.md). The client sends nothing.
 */
final class StatusSocket
{
    private const TIMEOUT_SECONDS = 5;

    public function __construct(public readonly string $path)
    {
    }

    public static function forPidFile(string $pidFile): self
    {
        return new self($pidFile . '.sock');
    }

    /** The document as sent. @throws CliException */
    public function read(): string
    {
        if (!file_exists($this->path)) {
            throw new CliException("no status socket at {$this->path}: is the server running?");
        }
        $socket = @stream_socket_client('unix://' . $this->path, $errno, $error, self::TIMEOUT_SECONDS);
        if ($socket === false) {
            throw new CliException("cannot read the server's status from {$this->path}: $error");
        }
        stream_set_timeout($socket, self::TIMEOUT_SECONDS);
        $json = (string) stream_get_contents($socket);
        fclose($socket);

        return $json;
    }

    /** @return array<string, mixed> @throws CliException */
    public function fetch(): array
    {
        $json = $this->read();
        $doc = json_decode($json, true);
        if (!is_array($doc) || !isset($doc['master'], $doc['workers'])) {
            throw new CliException("the status socket {$this->path} sent no status document");
        }

        return $doc;
    }
}
