<?php

/*
 * The example's Greeter (examples/grpc/app.php, as shipped) plus
 * rapier.test.Probe, for tests/Grpc/GrpcServerTest.php.
 */

declare(strict_types=1);

$server = require dirname(__DIR__, 3) . '/examples/grpc/app.php';
require_once __DIR__ . '/ProbeService.php';

return $server->addService('rapier.test.Probe', new Rapier\Tests\Apps\Grpc\ProbeService());
