<?php

/*
 * The helloworld.Greeter gRPC service, served by Rapier over HTTP/2:
 *
 *     bin/rapier serve examples/grpc/app.php --port 50051
 *
 * (`rapier serve` turns HTTP/2 on for a gRPC server by itself.) How to
 * call it, with grpcurl or a Python client: docs/grpc.md.
 */

declare(strict_types=1);

// The classes protoc generated from helloworld.proto (scripts/gen-grpc-example.sh);
// a Composer project autoloads them with its PSR-4 map instead.
spl_autoload_register(static function (string $class): void {
    $file = __DIR__ . '/generated/' . str_replace('\\', '/', $class) . '.php';
    if ((str_starts_with($class, 'Helloworld\\') || str_starts_with($class, 'GPBMetadata\\Helloworld')) && is_file($file)) {
        require $file;
    }
});
require_once __DIR__ . '/Greeter.php';

// reflection: grpcurl and the like call it without the .proto file; compression: replies
// of 1 KiB and more go gzip-compressed to the clients that accept it (docs/grpc.md).
return (new Rapier\Grpc\Server(reflection: true, compression: 'gzip'))
    ->addService('helloworld.Greeter', new Examples\Grpc\Greeter());
