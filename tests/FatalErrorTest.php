<?php

declare(strict_types=1);

namespace Rapier\Tests;

use PHPUnit\Framework\TestCase;
use Rapier\Tests\Support\PhpProcess;
use Rapier\Tests\Support\Services;

/**
 * A fatal error inside a coroutine ends the script as in stock PHP: the usual
 * "PHP Fatal error" report and exit status 255, even while other coroutines
 * are suspended in timers, channels and sockets whose stacks PHP frees
 * without unwinding. Never a segfault (139) at shutdown.
 */
final class FatalErrorTest extends TestCase
{
    public function testFatalErrorInCoroutineEndsScriptLikeStockPhp(): void
    {
        if (getenv('USE_ZEND_ALLOC') === '0') {
            $this->markTestSkipped('memory_limit needs Zend\'s allocator, which make asan turns off');
        }
        $port = Services::redisPort();
        $child = PhpProcess::run(<<<PHP
            <?php
            use Rapier\Channel;
            use Rapier\Coroutine;
            use function Rapier\go;
            use function Rapier\\run;

            run(static function (): void {
                \$channel = new Channel(0);
                go(static function (): void {
                    Coroutine::sleep(5);
                    echo "sleeper woke\\n";
                });
                go(static function () use (\$channel): void {
                    \$channel->pop();
                    echo "channel popped\\n";
                });
                go(static function (): void {
                    \$redis = new Redis();
                    \$redis->connect('127.0.0.1', $port);
                    \$redis->blPop(['fatal:never'], 5);
                    echo "blpop returned\\n";
                });
                go(static function (): void {
                    Coroutine::sleep(0.1);
                    ini_set('memory_limit', '16M');
                    \$too_big = str_repeat('x', 32 * 1024 * 1024);
                });
            });
            echo "run returned\\n";
            PHP);

        $this->assertSame(255, $child->exitCode, $child->describe());
        $this->assertStringContainsString('PHP Fatal error:  Allowed memory size of 16777216 bytes exhausted', $child->stderr);
        $this->assertSame('', $child->stdout, 'nothing runs after the fatal error');
    }

    public function testUserErrorInMainCoroutineEndsScriptLikeStockPhp(): void
    {
        $child = PhpProcess::run(<<<'PHP'
            <?php
            use Rapier\Coroutine;
            use function Rapier\go;
            use function Rapier\run;

            register_shutdown_function(static function (): void {
                echo "shutdown function ran\n";
            });
            run(static function (): void {
                go(static function (): void {
                    Coroutine::sleep(5);
                });
                Coroutine::sleep(0.05);
                trigger_error('stop here', E_USER_ERROR);
            });
            echo "run returned\n";
            PHP);

        $this->assertSame(255, $child->exitCode, $child->describe());
        $this->assertStringContainsString('PHP Fatal error:  stop here', $child->stderr);
        $this->assertSame("shutdown function ran\n", $child->stdout);
    }
}
