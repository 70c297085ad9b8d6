<?php

/*
 * Calls examples/grpc/app.php's helloworld.Greeter with Rapier\Grpc\Client:
 * the four kinds of call, twice at once from coroutines.
 *
 *     bin/rapier serve examples/grpc/app.php --port 50051 &
 *     php -d extension=ext/modules/rapier.so examples/grpc/client.php [host:port]
 */

declare(strict_types=1);

use Helloworld\HelloReply;
use Helloworld\HelloRequest;
use Helloworld\HelloStreamRequest;
use Rapier\Grpc\Client;
use Rapier\Grpc\GrpcException;

use function Rapier\go;
use function Rapier\run;

require dirname(__DIR__, 2) . '/src/autoload.php';
spl_autoload_register(static function (string $class): void {
    $file = __DIR__ . '/generated/' . str_replace('\\', '/', $class) . '.php';
    if ((str_starts_with($class, 'Helloworld\\') || str_starts_with($class, 'GPBMetadata\\Helloworld')) && is_file($file)) {
        require $file;
    }
});

$greeter = new Client($argv[1] ?? '127.0.0.1:50051', timeout: 5.0);

run(static function () use ($greeter): void {
    // Two coroutines: each call waits in the event loop, so they overlap.
    go(static function () use ($greeter): void {
        $reply = $greeter->unary('/helloworld.Greeter/SayHello', new HelloRequest(['name' => 'world']), HelloReply::class);
        echo "unary: {$reply->getMessage()}\n";
        try {
            $greeter->unary('/helloworld.Greeter/SayHello', new HelloRequest(['name' => '']), HelloReply::class);
        } catch (GrpcException $e) {
            echo "unary: {$e->status->name}: {$e->getMessage()}\n";
        }
    });
    go(static function () use ($greeter): void {
        $stream = $greeter->serverStream('/helloworld.Greeter/SayHelloStream',
            new HelloStreamRequest(['name' => 'stream', 'count' => 3]), HelloReply::class);
        foreach ($stream as $reply) {
            echo "server stream: {$reply->getMessage()}\n";
        }
    });
});

$call = $greeter->call('/helloworld.Greeter/SayHelloToAll', HelloReply::class);
foreach (['ann', 'bob', 'cy'] as $name) {
    $call->write(new HelloRequest(['name' => $name]));
}
echo "client stream: {$call->reply()->getMessage()}\n";

$chat = $greeter->call('/helloworld.Greeter/SayHelloChat', HelloReply::class);
foreach (['ann', 'bob'] as $name) {
    $chat->write(new HelloRequest(['name' => $name]));
    echo "chat: {$chat->read()?->getMessage()}\n";
}
$chat->writesDone();
echo 'chat ended: ', $chat->status()->name, "\n";
