<?php

declare(strict_types=1);

namespace Rapier\Grpc;

use LogicException;

/**
 * Server::addService() refused a service: a bad name, an implementation
 * without RPC methods, or a method whose signature cannot be served. The
 * message names the method and says what to change.
 */
class InvalidServiceException extends LogicException
{
}
