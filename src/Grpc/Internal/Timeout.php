<?php

declare(strict_types=1);

namespace Rapier\Grpc\Internal;

use Rapier\Grpc\GrpcException;
use Rapier\Grpc\Status;

/**
 * The grpc-timeout request header: at most 8 digits and a unit
 * (PROTOCOL-HTTP2.md: Hour, Minute, Second, milli-, micro-, nanosecond).
 *
 * @internal
 */
final class Timeout
{
    private const UNIT_SECONDS = ['H' => 3600.0, 'M' => 60.0, 'S' => 1.0, 'm' => 1e-3, 'u' => 1e-6, 'n' => 1e-9];

    /**
     * Seconds.
     *
     * @throws GrpcException INTERNAL for a malformed value, as grpc-go answers it
     */
    public static function parse(string $value): float
    {
        if (preg_match('/^([0-9]{1,8})([HMSmun])$/D', $value, $m) !== 1) {
            throw new GrpcException('malformed grpc-timeout: ' . substr($value, 0, 40),
                Status::INTERNAL);
        }

        return (int) $m[1] * self::UNIT_SECONDS[$m[2]];
    }

    /**
     * A grpc-timeout value for $seconds (more than 0): the finest unit
     * whose count fits the 8 digits, rounded up, so the server's deadline
     * is never earlier than the client's.
     */
    public static function format(float $seconds): string
    {
        foreach (['n', 'u', 'm', 'S', 'M', 'H'] as $unit) {
            // Less a millionth of a unit: a float quotient a hair over a whole count is that count.
            $count = (int) ceil($seconds / self::UNIT_SECONDS[$unit] - 1e-6);
            if ($count <= 99999999) {
                return $count . $unit;
            }
        }

        return '99999999H';
    }
}
