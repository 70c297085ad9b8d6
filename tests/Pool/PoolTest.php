<?php

declare(strict_types=1);

namespace Rapier\Tests\Pool;

use PHPUnit\Framework\TestCase;
use Rapier\CanceledException;
use Rapier\Coroutine;
use Rapier\Pool\CallableConnector;
use Rapier\Pool\Pool;
use Rapier\Pool\PoolClosedException;
use Rapier\Pool\PoolOptions;
use Rapier\Pool\PoolTimeoutException;
use Rapier\Pool\PoolUsageError;
use Rapier\WaitGroup;
use RuntimeException;
use stdClass;
use ValueError;

use function Rapier\go;
use function Rapier\run;

/**
 * The pool's own rules, with plain objects as connections (no server):
 * sizes, waiting, hand-over order, timeouts, closing, idle reaping and
 * connections a coroutine never gave back. Results are collected inside
 * the coroutines and asserted after Rapier\run() returned.
 */
final class PoolTest extends TestCase
{
    /** @var list<stdClass> every connection the connector opened */
    private array $opened = [];

    /** @var list<stdClass> every connection the connector closed */
    private array $closed = [];

    public function testLendsAtMostMaxAndReusesReturnedConnections(): void
    {
        $pool = $this->pool(new PoolOptions(max: 3));
        $peak = 0;

        $seen = run(function () use ($pool, &$peak): array {
            $seen = [];
            $done = new WaitGroup();
            for ($i = 0; $i < 30; $i++) {
                $done->add();
                go(function () use ($pool, $done, &$seen, &$peak): void {
                    $seen[] = $pool->use(function (stdClass $c) use ($pool, &$peak): int {
                        $peak = max($peak, $pool->stats()['in_use']);
                        Coroutine::sleep(0.002);

                        return $c->id;
                    });
                    $done->done();
                });
            }
            $done->wait();

            return $seen;
        });

        $this->assertCount(30, $seen);
        $this->assertSame(3, $peak);
        $this->assertCount(3, $this->opened);
        $this->assertSame([0, 1, 2], $this->sorted(array_unique($seen)));
        $this->assertSame(['open' => 3, 'idle' => 3, 'in_use' => 0, 'waiting' => 0], array_slice($pool->stats(), 0, 4));
    }

    public function testWaitersAreServedInArrivalOrder(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1, waitTimeout: -1));
        $order = [];

        run(function () use ($pool, &$order): void {
            $held = $pool->get();
            for ($i = 0; $i < 4; $i++) {
                go(function () use ($pool, $i, &$order): void {
                    $pool->use(function () use ($i, &$order): void {
                        $order[] = $i;
                    });
                });
            }
            Coroutine::sleep(0.01);     // all four are waiting now
            $pool->put($held);
        });

        $this->assertSame([0, 1, 2, 3], $order);
        $this->assertCount(1, $this->opened);
    }

    public function testWaitTimesOutWhileOtherCoroutinesKeepRunning(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1));
        $ticks = 0;

        $outcome = run(function () use ($pool, &$ticks): array {
            $holder = go(function () use ($pool): void {
                $pool->use(fn () => Coroutine::sleep(0.5));
            });
            go(function () use (&$ticks): void {
                for ($i = 0; $i < 5; $i++) {
                    Coroutine::sleep(0.002);
                    $ticks++;
                }
            });
            Coroutine::sleep(0.001);    // the holder has its connection
            $outcome = [];
            try {
                $pool->get(0);
            } catch (PoolTimeoutException $e) {
                $outcome['no wait'] = $e->getMessage();
            }
            try {
                $pool->get(0.2);
            } catch (PoolTimeoutException $e) {
                $outcome['ticks during the wait'] = $ticks;
            }
            $outcome['holder alive'] = Coroutine::exists($holder);
            $outcome['after the holder'] = $pool->use(fn (stdClass $c) => $c->id, -1);

            return $outcome;
        });

        $this->assertSame('No connection to test pool came free within 0 s: all 1 are in use (raise the pool\'s max or waitTimeout)', $outcome['no wait']);
        // The waiting coroutine was suspended, not the worker: the ticker ran all its rounds meanwhile.
        $this->assertSame(5, $outcome['ticks during the wait']);
        $this->assertTrue($outcome['holder alive']);
        $this->assertSame(0, $outcome['after the holder']);
        $this->assertSame(2, $pool->stats()['timeouts']);
    }

    public function testDefaultWaitTimeoutComesFromTheOptions(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1, waitTimeout: 0.02));

        $caught = run(function () use ($pool): ?string {
            $pool->get();
            try {
                $pool->get();
            } catch (PoolTimeoutException $e) {
                return $e->getMessage();
            }

            return null;
        });

        $this->assertStringContainsString('within 0.02 s', (string) $caught);
    }

    public function testUseGivesBackOnSuccessAndAfterAnException(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1), reset: fn (stdClass $c, ?\Throwable $e) => !$e instanceof RuntimeException);

        $result = run(function () use ($pool): array {
            $result = [$pool->use(fn (stdClass $c) => "first {$c->id}")];
            try {
                $pool->use(fn () => throw new \LogicException('not about the connection'));
            } catch (\LogicException $e) {
                $result[] = $e->getMessage();
            }
            $result[] = $pool->use(fn (stdClass $c) => "kept {$c->id}");
            try {
                $pool->use(fn () => throw new RuntimeException('connection broke'));
            } catch (RuntimeException $e) {
                $result[] = $e->getMessage();
            }
            $result[] = $pool->use(fn (stdClass $c) => "replaced by {$c->id}");

            return $result;
        });

        $this->assertSame(['first 0', 'not about the connection', 'kept 0', 'connection broke', 'replaced by 1'], $result);
        $this->assertSame([0], array_map(fn (stdClass $c) => $c->id, $this->closed));
    }

    public function testDiscardClosesTheConnectionAndFreesItsSlot(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1, waitTimeout: 0));

        $next = run(function () use ($pool): int {
            $pool->discard($pool->get());

            return $pool->use(fn (stdClass $c) => $c->id);
        });

        $this->assertSame(1, $next);
        $this->assertSame([0], array_map(fn (stdClass $c) => $c->id, $this->closed));
    }

    public function testFailedHealthCheckReplacesTheConnection(): void
    {
        $pool = $this->pool(new PoolOptions(max: 2, checkAfterIdle: 0), check: fn (stdClass $c) => $c->id !== 0);

        $ids = run(function () use ($pool): array {
            $ids = [$pool->use(fn (stdClass $c) => $c->id)];
            $ids[] = $pool->use(fn (stdClass $c) => $c->id);

            return $ids;
        });

        $this->assertSame([0, 1], $ids);
        $this->assertSame([0], array_map(fn (stdClass $c) => $c->id, $this->closed));
    }

    public function testHealthCheckThatThrowsAnExceptionCountsAsFailed(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1, checkAfterIdle: 0), check: fn () => throw new RuntimeException('gone'));

        $ids = run(fn (): array => [$pool->use(fn (stdClass $c) => $c->id), $pool->use(fn (stdClass $c) => $c->id)]);

        $this->assertSame([0, 1], $ids);
    }

    public function testHealthCheckThatThrowsAnErrorReachesTheBorrower(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1, checkAfterIdle: 0), check: fn () => throw new \TypeError('bug in check'));

        $outcome = run(function () use ($pool): array {
            $pool->use(fn () => null);
            try {
                $pool->use(fn () => null);
            } catch (\TypeError $e) {
                return [$e->getMessage(), $pool->stats()['open']];
            }

            return ['no error'];
        });

        $this->assertSame(['bug in check', 0], $outcome);
    }

    public function testFreshConnectionIsNotHealthChecked(): void
    {
        $checks = 0;
        $pool = $this->pool(new PoolOptions(max: 1, checkAfterIdle: 60), check: function () use (&$checks): bool {
            $checks++;

            return true;
        });

        run(function () use ($pool): void {
            for ($i = 0; $i < 5; $i++) {
                $pool->use(fn () => null);
            }
        });

        $this->assertSame(0, $checks);
    }

    public function testIdleConnectionsCloseAfterTheIdleTimeoutDownToMin(): void
    {
        $pool = $this->pool(new PoolOptions(max: 4, min: 1, idleTimeout: 0.05, checkAfterIdle: 60));

        $stats = run(function () use ($pool): array {
            $held = [$pool->get(), $pool->get(), $pool->get(), $pool->get()];
            array_map($pool->put(...), $held);
            $stats = ['before' => $pool->stats()['open']];
            Coroutine::sleep(0.1);
            $stats['reaped'] = $pool->reap();
            $stats['after'] = $pool->stats()['open'];

            return $stats;
        });

        $this->assertSame(['before' => 4, 'reaped' => 3, 'after' => 1], $stats);
        // The three that waited longest went; the most recently used one stays.
        $this->assertSame([0, 1, 2], $this->sorted(array_map(fn (stdClass $c) => $c->id, $this->closed)));
    }

    public function testBorrowReapsStaleIdleConnections(): void
    {
        $pool = $this->pool(new PoolOptions(max: 3, idleTimeout: 0.05, checkAfterIdle: 60));

        $open = run(function () use ($pool): int {
            $held = [$pool->get(), $pool->get(), $pool->get()];
            array_map($pool->put(...), $held);
            Coroutine::sleep(0.1);
            $pool->use(fn () => null);

            return $pool->stats()['open'];
        });

        // The stale three closed; the borrow then opened a fresh one.
        $this->assertSame(1, $open);
        $this->assertCount(3, $this->closed);
        $this->assertCount(4, $this->opened);
    }

    public function testFillOpensMinConnections(): void
    {
        $pool = $this->pool(new PoolOptions(max: 5, min: 3));

        $filled = run(fn (): array => [$pool->fill(), $pool->fill()]);

        $this->assertSame([3, 0], $filled);
        $this->assertSame(3, $pool->stats()['idle']);
    }

    public function testCloseDuringFillClosesTheConnectionBeingOpened(): void
    {
        $pool = $this->pool(new PoolOptions(max: 3, min: 3), connectSeconds: 0.05);
        $fill = null;

        $closed = run(function () use ($pool, &$fill): array {
            go(function () use ($pool, &$fill): void {
                try {
                    $fill = $pool->fill();
                } catch (PoolClosedException) {
                    $fill = 'PoolClosedException';
                }
            });
            Coroutine::sleep(0.02);   // fill() is inside its first connect()

            return [$pool->close(2.0), $pool->stats()['open'], $pool->stats()['idle']];
        });

        $this->assertSame([true, 0, 0], $closed);
        $this->assertSame('PoolClosedException', $fill);
        $this->assertCount(1, $this->opened);
        $this->assertSame($this->opened, $this->closed);
    }

    public function testCancelWhileHealthCheckingReachesTheBorrower(): void
    {
        $pool = $this->pool(new PoolOptions(max: 2, checkAfterIdle: 0), check: function (): bool {
            Coroutine::sleep(0.2);   // a round trip, as a PING is

            return true;
        });
        $borrower = null;

        $stats = run(function () use ($pool, &$borrower): array {
            $pool->put($pool->get());
            $id = go(function () use ($pool, &$borrower): void {
                try {
                    $pool->get();
                    $borrower = 'got a connection';
                } catch (CanceledException) {
                    $borrower = 'canceled';
                }
            });
            Coroutine::sleep(0.05);
            Coroutine::cancel($id);
            Coroutine::sleep(0.3);

            return $pool->stats();
        });

        $this->assertSame('canceled', $borrower);
        $this->assertSame([0, 1, 1], [$stats['open'], $stats['created'], $stats['closed']]);
    }

    public function testConnectionNeverGivenBackIsClosedWhenItsCoroutineEnds(): void
    {
        $pool = $this->pool(new PoolOptions(max: 1, waitTimeout: 1));

        $next = run(function () use ($pool): int {
            go(function () use ($pool): void {
                $pool->get();           // and forgets put()
            });
            Coroutine::sleep(0.01);

            return $pool->use(fn (stdClass $c) => $c->id);
        });

        $this->assertSame(1, $next);
        $this->assertSame([0], array_map(fn (stdClass $c) => $c->id, $this->closed));
        $this->assertSame(1, $pool->stats()['reclaimed']);
    }

    public function testOnlyWhatACoroutineStillHoldsIsReclaimedWhenItEnds(): void
    {
        $pool = $this->pool(new PoolOptions(max: 3, waitTimeout: 1));

        $stats = run(function () use ($pool): array {
            $held = $pool->get();       // by the main coroutine, across the others' ends
            go(function () use ($pool): void {
                $pool->put($pool->get());
                $pool->get();           // and forgets put()
            });
            go(function () use ($pool): void {
                $pool->put($pool->get());
            });
            Coroutine::sleep(0.01);
            $stats = $pool->stats();
            $pool->put($held);

            return $stats;
        });

        $this->assertSame(1, $stats['reclaimed'], 'the forgotten one, not the ones put back');
        $this->assertSame(1, $stats['in_use'], 'the main coroutine\'s, still lent');
        $this->assertCount(1, $this->closed);
    }

    public function testCloseWakesWaitersAndDrainsBorrowedConnections(): void
    {
        $pool = $this->pool(new PoolOptions(max: 2, waitTimeout: -1));

        $outcome = run(function () use ($pool): array {
            $idle = $pool->get();
            $held = $pool->get();
            $pool->put($idle);
            $pool->get();               // takes $idle back: both in use now
            $outcome = [];
            go(function () use ($pool, &$outcome): void {
                try {
                    $pool->get();
                } catch (PoolClosedException $e) {
                    $outcome['waiter'] = $e->getMessage();
                }
            });
            go(function () use ($pool, $held): void {
                Coroutine::sleep(0.02);
                $pool->put($held);
            });
            Coroutine::sleep(0.005);
            $outcome['closed at once'] = $pool->close();
            $outcome['open while one is still out'] = $pool->stats()['open'];
            $pool->put($idle);
            $outcome['drained'] = $pool->close(-1);
            try {
                $pool->get();
            } catch (PoolClosedException $e) {
                $outcome['later'] = $e->getMessage();
            }

            return $outcome;
        });

        ksort($outcome);
        $this->assertSame([
            'closed at once' => false,
            'drained' => true,
            'later' => 'The pool of test pool is closed',
            'open while one is still out' => 2,
            'waiter' => 'The pool of test pool is closed',
        ], $outcome);
        $this->assertCount(2, $this->closed);
    }

    public function testFailedConnectFreesItsSlot(): void
    {
        $attempts = 0;
        $pool = new Pool(new CallableConnector(function () use (&$attempts): stdClass {
            if (++$attempts === 1) {
                throw new RuntimeException('refused');
            }

            return new stdClass();
        }), new PoolOptions(max: 1, waitTimeout: 0));

        $outcome = run(function () use ($pool): array {
            try {
                $pool->get();
            } catch (RuntimeException $e) {
                $first = $e->getMessage();
            }

            return [$first ?? null, $pool->stats()['open'], $pool->get() instanceof stdClass];
        });

        $this->assertSame(['refused', 0, true], $outcome);
    }

    public function testBorrowOutsideACoroutineIsRefused(): void
    {
        $pool = $this->pool(new PoolOptions());

        $this->expectException(PoolUsageError::class);
        $this->expectExceptionMessage('Cannot call Rapier\Pool\Pool::get() outside a coroutine: call it inside Rapier\run(), Rapier\go() or a server handler');
        $pool->get();
    }

    public function testUseOutsideACoroutineIsRefused(): void
    {
        $pool = $this->pool(new PoolOptions());

        $this->expectException(PoolUsageError::class);
        $pool->use(fn () => null);
    }

    public function testPuttingBackAForeignConnectionIsRefused(): void
    {
        $pool = $this->pool(new PoolOptions());

        $error = run(function () use ($pool): string {
            try {
                $pool->put(new stdClass());
            } catch (PoolUsageError $e) {
                return $e->getMessage();
            }

            return 'accepted';
        });

        $this->assertSame('Cannot put back a stdClass this pool did not lend, or that was already given back', $error);
    }

    public function testPuttingBackTwiceIsRefused(): void
    {
        $pool = $this->pool(new PoolOptions());

        $outcome = run(function () use ($pool): array {
            $c = $pool->get();
            $pool->put($c);
            try {
                $pool->put($c);
            } catch (PoolUsageError $e) {
                return [get_class($e), $pool->stats()['idle']];
            }

            return ['accepted'];
        });

        $this->assertSame([PoolUsageError::class, 1], $outcome);
    }

    public function testNanTimeoutIsAValueError(): void
    {
        $pool = $this->pool(new PoolOptions());

        $error = run(function () use ($pool): string {
            try {
                $pool->get(NAN);
            } catch (ValueError $e) {
                return $e->getMessage();
            }

            return 'accepted';
        });

        $this->assertSame('Rapier\Pool\Pool::get(): Argument #1 ($timeout) must not be NAN', $error);
    }

    /** @return iterable<string, array{array<string, mixed>, string}> */
    public static function invalidOptions(): iterable
    {
        yield 'max 0' => [['max' => 0], 'Argument #1 ($max) must be greater than 0'];
        yield 'min over max' => [['max' => 2, 'min' => 3], 'Argument #2 ($min) must be between 0 and $max'];
        yield 'negative min' => [['min' => -1], 'Argument #2 ($min) must be between 0 and $max'];
        yield 'NaN wait' => [['waitTimeout' => NAN], 'Argument #3 ($waitTimeout) must not be NAN'];
        yield 'zero idle' => [['idleTimeout' => 0.0], 'Argument #4 ($idleTimeout) must be greater than 0, or null for no idle timeout'];
        yield 'negative check' => [['checkAfterIdle' => -1.0], 'Argument #5 ($checkAfterIdle) must be greater than or equal to 0'];
    }

    /**
     * @dataProvider invalidOptions
     * @param array<string, mixed> $options
     */
    public function testInvalidOptionsAreValueErrors(array $options, string $message): void
    {
        $this->expectException(ValueError::class);
        $this->expectExceptionMessage('Rapier\Pool\PoolOptions::__construct(): ' . $message);
        new PoolOptions(...$options);
    }

    private function pool(
        PoolOptions $options,
        ?callable $check = null,
        ?callable $reset = null,
        float $connectSeconds = 0,
    ): Pool {
        $connector = new CallableConnector(
            connect: function () use ($connectSeconds): stdClass {
                if ($connectSeconds > 0) {
                    Coroutine::sleep($connectSeconds);
                }
                $c = new stdClass();
                $c->id = count($this->opened);
                $this->opened[] = $c;

                return $c;
            },
            check: $check,
            reset: $reset,
            close: function (stdClass $c): void {
                $this->closed[] = $c;
            },
            description: 'test pool',
        );

        return new Pool($connector, $options);
    }

    /**
     * @param array<int> $ids
     * @return list<int>
     */
    private function sorted(array $ids): array
    {
        sort($ids);

        return $ids;
    }
}
