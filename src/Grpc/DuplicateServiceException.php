<?php

declare(strict_types=1);

namespace Rapier\Grpc;

/** Server::addService() was given a service name it already serves. */
final class DuplicateServiceException extends InvalidServiceException
{
}
