<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

use PHPUnit\Framework\TestCase;
use Rapier\Adapter\Internal\ObjectState;
use SplObjectStorage;
use stdClass;

final class ObjectStateTest extends TestCase
{
    public function testRestoresEveryPropertyIncludingParentPrivateOnes(): void
    {
        $object = new ObjectStateChild();
        $state = ObjectState::capture($object);
        $object->change();
        $this->assertSame(['p' => 2, 'q' => 2, 'c' => 2, 'items' => ['a' => 1, 'b' => 2]], $object->values());

        $state->restore();

        $this->assertSame(['p' => 1, 'q' => 1, 'c' => 1, 'items' => ['a' => 1]], $object->values());
    }

    public function testKeepsObjectsByIdentity(): void
    {
        $object = new ObjectStateChild();
        $service = $object->service;
        $state = ObjectState::capture($object);
        $service->touched = true;
        $object->service = new stdClass();

        $state->restore();

        $this->assertSame($service, $object->service);
        $this->assertTrue($object->service->touched, 'the object itself is not rewound');
    }

    public function testCopiesObjectStorages(): void
    {
        $object = new ObjectStateChild();
        $state = ObjectState::capture($object);
        $object->storage->attach(new stdClass());
        $state->restore();
        $this->assertCount(0, $object->storage);

        $object->storage->attach(new stdClass());
        $state->restore();
        $this->assertCount(0, $object->storage, 'the captured storage itself stays empty');
    }

    public function testSkipsReadonlyAndUninitializedProperties(): void
    {
        $object = new ObjectStateChild();
        $state = ObjectState::capture($object);
        $object->late = 'set later';

        $state->restore();

        $this->assertSame('fixed', $object->fixed);
        $this->assertSame('set later', $object->late);
    }
}

class ObjectStateParent
{
    private int $p = 1;

    protected int $q = 1;

    public function changeParent(): void
    {
        $this->p = 2;
        $this->q = 2;
    }

    /** @return array{p: int, q: int} */
    public function parentValues(): array
    {
        return ['p' => $this->p, 'q' => $this->q];
    }
}

final class ObjectStateChild extends ObjectStateParent
{
    public stdClass $service;

    public SplObjectStorage $storage;

    public readonly string $fixed;

    public string $late;

    private int $c = 1;

    /** @var array<string, int> */
    private array $items = ['a' => 1];

    public function __construct()
    {
        $this->service = new stdClass();
        $this->storage = new SplObjectStorage();
        $this->fixed = 'fixed';
    }

    public function change(): void
    {
        $this->changeParent();
        $this->c = 2;
        $this->items['b'] = 2;
    }

    /** @return array<string, mixed> */
    public function values(): array
    {
        return $this->parentValues() + ['c' => $this->c, 'items' => $this->items];
    }
}
