<?php

declare(strict_types=1);

namespace Rapier\Adapter;

/**
 * An Adapter whose clients speak only HTTP/2, such as gRPC's
 * (Rapier\Grpc\Server): `rapier serve` turns the server's http2 option on
 * for it, without --http2.
 */
interface RequiresHttp2
{
}
