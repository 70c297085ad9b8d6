<?php

declare(strict_types=1);

namespace Rapier\Grpc;

/**
 * What grpc.health.v1.Health answers for a service
 * (HealthCheckResponse.ServingStatus; its UNKNOWN and SERVICE_UNKNOWN are
 * the protocol's own), as set with Server::setServingStatus().
 */
enum ServingStatus: int
{
    case SERVING = 1;
    case NOT_SERVING = 2;
}
