<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use PHPUnit\Framework\SkippedTestError;
use PHPUnit\Framework\TestCase;
use RuntimeException;

/** What the gRPC tests need beside Rapier: gRPC's C core for Python, protoc, and PHP's protobuf runtime. */
final class GrpcTools
{
    public const PYTHON = '/usr/bin/python3';
    public const DEPS = 'scripts/install-deps.sh installs them';

    /** @throws SkippedTestError naming the package that is missing */
    public static function require(): void
    {
        $probe = @shell_exec(self::PYTHON . ' -c "import grpc, google.protobuf" 2>&1 && echo ok');
        if (trim((string) $probe) !== 'ok') {
            TestCase::markTestSkipped('python3-grpcio and python3-protobuf are not installed (' . self::DEPS . ')');
        }
        if (trim((string) shell_exec('command -v protoc')) === '') {
            TestCase::markTestSkipped('protoc is not installed (protobuf-compiler; ' . self::DEPS . ')');
        }
        if (!class_exists(\Google\Protobuf\Internal\Message::class)) {
            TestCase::markTestSkipped('the PHP protobuf runtime is not installed (php-google-protobuf; ' . self::DEPS . ')');
        }
    }

    /**
     * Runs protoc with $arguments.
     *
     * @param list<string> $arguments
     * @throws RuntimeException with protoc's output when it fails
     */
    public static function protoc(array $arguments): void
    {
        exec('protoc ' . implode(' ', array_map('escapeshellarg', $arguments)) . ' 2>&1', $output, $status);
        if ($status !== 0) {
            throw new RuntimeException('protoc ' . implode(' ', $arguments) . ' failed: ' . implode("\n", $output));
        }
    }
}
