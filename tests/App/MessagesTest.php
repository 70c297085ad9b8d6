<?php

declare(strict_types=1);

namespace Rapier\Tests\App;

use PHPUnit\Framework\TestCase;
use Rapier\App\Messages;
use Rapier\Exception;

/**
 * Rapier\App\Messages on its own: the handler's dispatch by topic and what
 * it refuses. Messages between the workers of a real `rapier serve` are
 * in tests/Cli/ServeTest.php and tests/WebSocketTest.php.
 */
final class MessagesTest extends TestCase
{
    public function testAMessageRunsEveryListenerOfItsTopicOnly(): void
    {
        $heard = [];
        Messages::listen('messages-test-a', static function (mixed $data, int $from) use (&$heard): void {
            $heard[] = ['first', $data, $from];
        });
        Messages::listen('messages-test-a', static function (mixed $data, int $from) use (&$heard): void {
            $heard[] = ['second', $data, $from];
        });
        Messages::listen('messages-test-b', static function () use (&$heard): void {
            $heard[] = ['other topic'];
        });

        Messages::handle(['messages-test-a', ['x' => 1]], 3);
        Messages::handle(['messages-test-nobody', 1], -1);

        $this->assertSame([['first', ['x' => 1], 3], ['second', ['x' => 1], 3]], $heard);
    }

    public function testAMessageNotSentByMessagesIsRefused(): void
    {
        $this->expectException(Exception::class);
        $this->expectExceptionMessage('Cannot handle a message from worker 2: expected [topic, data] from Rapier\App\Messages');

        Messages::handle('sent with Server::sendMessage()', 2);
    }

    public function testSendingOutsideTheServerSaysWhere(): void
    {
        $this->expectException(Exception::class);
        $this->expectExceptionMessage('messages go between the workers of `rapier serve`');

        Messages::broadcast('messages-test-a', 1);
    }
}
