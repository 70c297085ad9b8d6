<?php

declare(strict_types=1);

namespace Rapier\Tests\Apps\Grpc;

use Google\Protobuf\Timestamp;
use Rapier\Tests\Apps\Grpc\Clock\NowReply;
use Rapier\Tests\Apps\Grpc\Clock\NowReply\Precision;
use Rapier\Tests\Apps\Grpc\Clock\NowReply\Source;
use Rapier\Tests\Apps\Grpc\Clock\NowRequest;

/**
 * rapier.test.Clock (clock.proto), which the reflection tests of
 * tests/Grpc/GrpcServerTest.php call knowing nothing of it but what
 * reflection tells.
 */
final class ClockService
{
    public function Now(NowRequest $request): NowReply
    {
        [$micro, $seconds] = explode(' ', microtime());

        return new NowReply([
            'time' => new Timestamp(['seconds' => (int) $seconds, 'nanos' => (int) ((float) $micro * 1e6) * 1000]),
            'precision' => Precision::MICROSECOND,
            'source' => new Source(['name' => $request->getCaller()]),
        ]);
    }
}
