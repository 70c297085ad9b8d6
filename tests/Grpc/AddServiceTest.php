<?php

declare(strict_types=1);

namespace Rapier\Tests\Grpc;

use Generator;
use Helloworld\HelloReply;
use Helloworld\HelloRequest;
use PHPUnit\Framework\TestCase;
use Rapier\Grpc\Context;
use Rapier\Grpc\DuplicateServiceException;
use Rapier\Grpc\Internal\ServiceReflector;
use Rapier\Grpc\InvalidServiceException;
use Rapier\Grpc\Server;
use Rapier\Grpc\ServingStatus;
use Rapier\Grpc\Stream;

/** Server::addService(): which methods are RPCs, and the mistakes it refuses before anything is served. */
final class AddServiceTest extends TestCase
{
    public static function setUpBeforeClass(): void
    {
        if (!class_exists(\Google\Protobuf\Internal\Message::class)) {
            self::markTestSkipped('the PHP protobuf runtime is not installed (php-google-protobuf; scripts/install-deps.sh installs it)');
        }
        // The example's generated classes, as examples/grpc/app.php loads them.
        spl_autoload_register(static function (string $class): void {
            $file = dirname(__DIR__, 2) . '/examples/grpc/generated/' . str_replace('\\', '/', $class) . '.php';
            if ((str_starts_with($class, 'Helloworld\\') || $class === 'GPBMetadata\\Helloworld') && is_file($file)) {
                require $file;
            }
        });
    }

    public function testTheKindsOfMethodsAreFoundAndHelpersLeftAlone(): void
    {
        $service = new class () {
            public function Unary(HelloRequest $request): HelloReply
            {
                return new HelloReply();
            }

            public function WithContext(HelloRequest $request, Context $context, int $optional = 0): HelloReply
            {
                return new HelloReply();
            }

            public function ServerStream(HelloRequest $request): Generator
            {
                yield new HelloReply();
            }

            public function ClientStream(#[Stream(HelloRequest::class)] iterable $requests): HelloReply
            {
                return new HelloReply();
            }

            public function Both(#[Stream(HelloRequest::class)] iterable $requests, Context $context): iterable
            {
                return [];
            }

            public function helper(string $text): string
            {
                return $text;
            }

            public function noArguments(): void
            {
            }

            public static function Static(HelloRequest $request): HelloReply
            {
                return new HelloReply();
            }

            protected function Hidden(HelloRequest $request): HelloReply
            {
                return new HelloReply();
            }
        };
        $methods = ServiceReflector::methods('test.Kinds', $service);

        $kinds = array_map(static fn ($m): array => [$m->clientStreaming, $m->serverStreaming], $methods);
        ksort($kinds);
        $this->assertSame([
            'Both' => [true, true],
            'ClientStream' => [true, false],
            'ServerStream' => [false, true],
            'Unary' => [false, false],
            'WithContext' => [false, false],
        ], $kinds);
    }

    /** @return array<string, array{object, string}> */
    public static function mistakes(): array
    {
        return [
            'no RPC methods' => [new class () {
                public function helper(string $x): string
                {
                    return $x;
                }
            }, 'has no RPC methods: an RPC method is public, takes a protobuf message'],
            '#[Stream] on an array' => [new class () {
                public function Record(#[Stream(HelloRequest::class)] array $points): HelloReply
                {
                    return new HelloReply();
                }
            }, '::Record() (service test.Bad): #[Stream] marks the client\'s stream of messages, so $points must be typed iterable, got array'],
            'an iterable without #[Stream]' => [new class () {
                public function Record(iterable $points): HelloReply
                {
                    return new HelloReply();
                }
            }, 'names its message class with #[Rapier\Grpc\Stream(TheMessage::class)] on $points'],
            '#[Stream] naming a class that is no message' => [new class () {
                public function Record(#[Stream(\stdClass::class)] iterable $points): HelloReply
                {
                    return new HelloReply();
                }
            }, '#[Stream(stdClass::class)] must name a protobuf message class'],
            'a second parameter that is no Context' => [new class () {
                public function Hello(HelloRequest $request, array $options): HelloReply
                {
                    return new HelloReply();
                }
            }, 'the second parameter, $options, must be typed Rapier\Grpc\Context (or be left out), got array'],
            'a third required parameter' => [new class () {
                public function Hello(HelloRequest $request, Context $context, int $extra): HelloReply
                {
                    return new HelloReply();
                }
            }, '$extra needs a default value, or remove it'],
            'no return type' => [new class () {
                public function Hello(HelloRequest $request)
                {
                    return new HelloReply();
                }
            }, 'declare the return type, a protobuf message class for one reply or iterable'],
            'a return type that is no message' => [new class () {
                public function Hello(HelloRequest $request): string
                {
                    return '';
                }
            }, 'got string'],
            'a request class that does not exist' => [new class () {
                public function Hello(\Helloworld\NoSuchRequest $request): HelloReply
                {
                    return new HelloReply();
                }
            }, 'Helloworld\NoSuchRequest, is not a loadable class (is the code protoc generated autoloaded?)'],
        ];
    }

    /** @dataProvider mistakes */
    public function testMistakesAreRefusedSayingWhatToDo(object $implementation, string $message): void
    {
        $this->expectException(InvalidServiceException::class);
        $this->expectExceptionMessage($message);
        (new Server())->addService('test.Bad', $implementation);
    }

    public function testAServiceIsAddedOnce(): void
    {
        $first = self::echoService();
        $server = (new Server())->addService('test.Greeter', $first);
        $this->expectException(DuplicateServiceException::class);
        $this->expectExceptionMessage('service test.Greeter is already served (by an instance of ' . get_class($first) . ')');
        $server->addService('test.Greeter', self::echoService());
    }

    public function testServiceNamesAreProtobufFullNames(): void
    {
        $server = new Server();
        $this->assertSame(['a.b.C', 'Greeter'], $server->addService('a.b.C', self::echoService())
            ->addService('Greeter', self::echoService())->services());
        foreach (['', 'hello world', '.x', 'x.', 'a..b', 'a/b', '1a.B'] as $bad) {
            try {
                $server->addService($bad, self::echoService());
                $this->fail("'$bad' was accepted");
            } catch (InvalidServiceException $e) {
                $this->assertNotInstanceOf(DuplicateServiceException::class, $e);
                $this->assertStringContainsString("invalid service name '$bad'", $e->getMessage());
            }
        }
    }

    public function testTheMessageLimitMustBePositive(): void
    {
        $this->expectException(\ValueError::class);
        new Server(maxReceiveMessageBytes: 0);
    }

    public function testWebOriginsAreOrigins(): void
    {
        $this->assertInstanceOf(Server::class, new Server(webOrigins: ['https://app.example', 'http://localhost:3000', '*']));
        foreach (['app.example', 'https://app.example/', 'https://app.example/path', ''] as $origin) {
            try {
                new Server(webOrigins: [$origin]);
                $this->fail("'$origin' was taken for an origin");
            } catch (\ValueError $e) {
                $this->assertStringContainsString('https://app.example', $e->getMessage(), 'the message shows the form');
            }
        }
    }

    public function testCompressionIsAnEncodingTheServerWrites(): void
    {
        foreach (['gzip', 'deflate', 'identity', null] as $encoding) {
            $this->assertInstanceOf(Server::class, new Server(compression: $encoding, compressMinBytes: 0));
        }
        foreach (['snappy', 'GZIP', 'br', ''] as $encoding) {
            try {
                new Server(compression: $encoding);
                $this->fail("'$encoding' was taken for an encoding");
            } catch (\ValueError $e) {
                $this->assertStringContainsString("'gzip', 'deflate'", $e->getMessage(), 'the message says what to use');
            }
        }
        $this->expectException(\ValueError::class);
        new Server(compressMinBytes: -1);
    }

    public function testServingStatusesAreSetByNameAndFixedOnceStopping(): void
    {
        $server = (new Server())->addService('test.Echo', self::echoService());
        $this->assertSame(ServingStatus::SERVING, $server->servingStatus(''), 'the server as a whole');
        $this->assertSame(ServingStatus::SERVING, $server->servingStatus('test.Echo'), 'a service added');
        $this->assertNull($server->servingStatus('test.Other'), 'a name neither added nor set');

        $server->setServingStatus('test.Echo', ServingStatus::NOT_SERVING)->setServingStatus('db', ServingStatus::SERVING);
        $this->assertSame(ServingStatus::NOT_SERVING, $server->servingStatus('test.Echo'));
        $this->assertSame(ServingStatus::SERVING, $server->servingStatus('db'));

        $server->stopping();
        $server->setServingStatus('db', ServingStatus::SERVING);
        foreach (['', 'test.Echo', 'db'] as $name) {
            $this->assertSame(ServingStatus::NOT_SERVING, $server->servingStatus($name), "'$name' once stopping");
        }
        $this->assertNull($server->servingStatus('test.Other'));
    }

    public function testServingStatusesNeedTheHealthService(): void
    {
        $this->expectException(\LogicException::class);
        $this->expectExceptionMessage('health: true');
        (new Server(health: false))->setServingStatus('', ServingStatus::NOT_SERVING);
    }

    private static function echoService(): object
    {
        return new class () {
            public function Echo(HelloRequest $request): HelloReply
            {
                return new HelloReply(['message' => $request->getName()]);
            }
        };
    }
}
