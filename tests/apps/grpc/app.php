<?php

/*
 * The example's Greeter (examples/grpc/app.php, as shipped) plus
 * rapier.test.Probe and rapier.test.Clock, for tests/Grpc/GrpcServerTest.php.
 */

declare(strict_types=1);

$server = require dirname(__DIR__, 3) . '/examples/grpc/app.php';
// The classes of clock.proto and googleapis' google/rpc/error_details.proto (scripts/gen-grpc-example.sh).
spl_autoload_register(static function (string $class): void {
    $file = __DIR__ . '/generated/' . str_replace('\\', '/', $class) . '.php';
    foreach (['Rapier\\Tests\\Apps\\Grpc\\Clock\\', 'Google\\Rpc\\', 'GPBMetadata\\Google\\Rpc\\'] as $prefix) {
        if (str_starts_with($class, $prefix) && is_file($file)) {
            require $file;
            return;
        }
    }
});
require_once __DIR__ . '/ProbeService.php';
require_once __DIR__ . '/ClockService.php';

return $server
    ->addService('rapier.test.Probe', new Rapier\Tests\Apps\Grpc\ProbeService($server))
    ->addService('rapier.test.Clock', new Rapier\Tests\Apps\Grpc\ClockService());
