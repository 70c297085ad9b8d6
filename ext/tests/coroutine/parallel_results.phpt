--TEST--
Rapier\parallel(): each callable runs in a coroutine of its own, all at once or at most $limit at a time in the array's order; the results keep the array's keys and order whatever order the callables finish in; every kind of callable; nested calls; an empty array
--EXTENSIONS--
rapier
--FILE--
<?php
use Rapier\Coroutine;

final class Answers
{
    public static function fortyTwo(): int
    {
        return 42;
    }

    public function __invoke(): string
    {
        return 'invoked';
    }
}

Rapier\run(function () {
    /* Each waits for its turn, so the last key finishes first: no timing decides the order. */
    $turns = [new Rapier\Channel(1), new Rapier\Channel(1)];
    $results = Rapier\parallel([
        'first' => function () use ($turns) {
            $turns[0]->pop();
            echo "finishing first\n";
            return ['an' => 'array'];
        },
        7 => function () use ($turns) {
            $turns[1]->pop();
            echo "finishing 7\n";
            $turns[0]->push(true);
            return null;
        },
        'last' => function () use ($turns) {
            echo "last runs in its own coroutine: ", var_export(Coroutine::id() !== 1, true), "\n";
            echo "finishing last\n";
            $turns[1]->push(true);
            return new ArrayObject([1, 2]);
        },
    ]);
    var_dump($results);

    echo "-- kinds of callables\n";
    var_dump(Rapier\parallel([
        'static method' => [Answers::class, 'fortyTwo'],
        'string' => 'Answers::fortyTwo',
        'invokable' => new Answers(),
        'first-class' => Answers::fortyTwo(...),
        'builtin' => 'phpversion',
    ]) === ['static method' => 42, 'string' => 42, 'invokable' => 'invoked', 'first-class' => 42, 'builtin' => PHP_VERSION]);

    echo "-- at most 2 at a time, started in the array's order\n";
    $running = $most = 0;
    $started = [];
    $gate = new Rapier\Channel(0);
    $jobs = [];
    foreach (range(1, 5) as $n) {
        $jobs["job$n"] = function () use ($n, &$running, &$most, &$started) {
            $started[] = $n;
            $most = max($most, ++$running);
            Coroutine::sleep(0.01);
            $running--;
            return $n * $n;
        };
    }
    var_dump(Rapier\parallel($jobs, limit: 2));
    echo "started: ", implode(' ', $started), "; most at once: $most\n";

    $running = $most = 0;
    Rapier\parallel($jobs);
    echo "without a limit most at once: $most\n";

    echo "-- nested\n";
    var_dump(Rapier\parallel([
        'outer' => fn () => Rapier\parallel(['inner' => fn () => 'deep']),
    ]));

    echo "-- empty\n";
    var_dump(Rapier\parallel([]));
    echo "coroutines left: ", Coroutine::count(), "\n";
});
?>
--EXPECTF--
last runs in its own coroutine: true
finishing last
finishing 7
finishing first
array(3) {
  ["first"]=>
  array(1) {
    ["an"]=>
    string(5) "array"
  }
  [7]=>
  NULL
  ["last"]=>
  object(ArrayObject)#%d (1) {
    ["storage":"ArrayObject":private]=>
    array(2) {
      [0]=>
      int(1)
      [1]=>
      int(2)
    }
  }
}
-- kinds of callables
bool(true)
-- at most 2 at a time, started in the array's order
array(5) {
  ["job1"]=>
  int(1)
  ["job2"]=>
  int(4)
  ["job3"]=>
  int(9)
  ["job4"]=>
  int(16)
  ["job5"]=>
  int(25)
}
started: 1 2 3 4 5; most at once: 2
without a limit most at once: 5
-- nested
array(1) {
  ["outer"]=>
  array(1) {
    ["inner"]=>
    string(4) "deep"
  }
}
-- empty
array(0) {
}
coroutines left: 1
