<?php

/*
 * The example's Greeter (examples/grpc/app.php, as shipped) plus
 * rapier.test.Probe and rapier.test.Clock, for tests/Grpc/GrpcServerTest.php.
 */

declare(strict_types=1);

$server = require dirname(__DIR__, 3) . '/examples/grpc/app.php';
// clock.proto's classes (scripts/gen-grpc-example.sh).
spl_autoload_register(static function (string $class): void {
    $file = __DIR__ . '/generated/' . str_replace('\\', '/', $class) . '.php';
    if (str_starts_with($class, 'Rapier\\Tests\\Apps\\Grpc\\Clock\\') && is_file($file)) {
        require $file;
    }
});
require_once __DIR__ . '/ProbeService.php';
require_once __DIR__ . '/ClockService.php';

return $server
    ->addService('rapier.test.Probe', new Rapier\Tests\Apps\Grpc\ProbeService())
    ->addService('rapier.test.Clock', new Rapier\Tests\Apps\Grpc\ClockService());
