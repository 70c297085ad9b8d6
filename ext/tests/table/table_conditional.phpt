--TEST--
Table: add() writes only a new row, replace() and delete() only a row holding the expected values; forked processes racing on them lose nothing
--EXTENSIONS--
rapier
pcntl
--FILE--
<?php
$t = new Rapier\Table(8, ['owner' => 'string:16', 'n' => 'int', 'f' => 'float']);

echo "-- add\n";
var_dump($t->add('lock', ['owner' => 'w1', 'n' => 1]), $t->add('lock', ['owner' => 'w2', 'n' => 2]), $t->get('lock'));

echo "-- replace\n";
var_dump($t->replace('none', ['n' => 5]), $t->exists('none'));
var_dump($t->replace('lock', ['owner' => 'w2'], ['owner' => 'w']), $t->replace('lock', ['owner' => 'w2'], ['owner' => 'w1', 'n' => 2]));
var_dump($t->get('lock'));
var_dump($t->replace('lock', ['owner' => 'w2', 'n' => 2], ['owner' => 'w1', 'n' => 1]), $t->get('lock'));
var_dump($t->replace('lock', ['n' => 3]), $t->get('lock', 'n'));
echo "floats compare by their bits; an int expected in a float column is that float\n";
$t->set('f', ['f' => 1.0]);
var_dump($t->replace('f', ['n' => 1], ['f' => 1]), $t->replace('f', ['n' => 2], ['f' => 1.0000000000000002]), $t->get('f', 'n'));
$t->set('f', ['f' => -0.0]);
var_dump($t->replace('f', ['n' => 3], ['f' => 0.0]), $t->replace('f', ['n' => 3], ['f' => -0.0]));

echo "-- delete\n";
var_dump($t->delete('lock', ['owner' => 'w1']), $t->exists('lock'));
var_dump($t->delete('lock', ['owner' => 'w2', 'n' => 3]), $t->exists('lock'), $t->delete('lock', ['owner' => 'w2']));
$t->set('s', ['owner' => '']);
var_dump($t->delete('s', ['owner' => "\0"]), $t->delete('s', ['owner' => '']));

echo "-- add on a full table\n";
$full = new Rapier\Table(1, ['n' => 'int']);
var_dump($full->add('a', ['n' => 1]), $full->add('a', ['n' => 2]));
try {
    $full->add('b', ['n' => 1]);
} catch (Rapier\TableFullException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}

echo "-- misuse throws and changes nothing\n";
$t->set('m', ['owner' => 'me', 'n' => 1]);
foreach ([
    fn () => $t->add('', ['n' => 1]),
    fn () => $t->add('m2', ['x' => 1]),
    fn () => $t->replace('m', ['n' => 2], ['n' => '1']),
    fn () => $t->replace('m', ['n' => 2], ['nope' => 1]),
    fn () => $t->replace('m', ['n' => 2], [1]),
    fn () => $t->replace('m', ['n' => 2.5], ['n' => 1]),
    fn () => $t->delete('m', ['owner' => str_repeat('x', 17)]),
    fn () => $t->delete('m', ['f' => 'x']),
] as $f) {
    try {
        $f();
    } catch (TypeError|ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump($t->get('m'), $t->exists('m2'));

echo "-- processes race\n";
$keys = 300;
$adds = 2000;
$race = new Rapier\Table($keys + 8, ['n' => 'int']);
$race->set('counter', ['n' => 0]);
$pids = [];
for ($child = 0; $child < 3; $child++) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $wins = 0;
        for ($i = 0; $i < $keys; $i++) {
            $wins += (int) $race->add("key$i", ['n' => $child]);
        }
        for ($i = 0; $i < $adds; $i++) {
            do {
                $seen = $race->get('counter', 'n');
            } while (!$race->replace('counter', ['n' => $seen + 1], ['n' => $seen]));
        }
        $race->set("wins$child", ['n' => $wins]);
        exit(0);
    }
    $pids[] = $pid;
}
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
    var_dump(pcntl_wexitstatus($status));
}
$wins = 0;
for ($child = 0; $child < 3; $child++) {
    $wins += $race->get("wins$child", 'n');
}
var_dump($wins, $race->get('counter', 'n'), count($race));
?>
--EXPECT--
-- add
bool(true)
bool(false)
array(3) {
  ["owner"]=>
  string(2) "w1"
  ["n"]=>
  int(1)
  ["f"]=>
  float(0)
}
-- replace
bool(false)
bool(false)
bool(false)
bool(false)
array(3) {
  ["owner"]=>
  string(2) "w1"
  ["n"]=>
  int(1)
  ["f"]=>
  float(0)
}
bool(true)
array(3) {
  ["owner"]=>
  string(2) "w2"
  ["n"]=>
  int(2)
  ["f"]=>
  float(0)
}
bool(true)
int(3)
floats compare by their bits; an int expected in a float column is that float
bool(true)
bool(false)
int(1)
bool(false)
bool(true)
-- delete
bool(false)
bool(true)
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
-- add on a full table
bool(true)
bool(false)
Rapier\TableFullException: Cannot add the row "b": all 1 rows of the table are taken (delete rows, or make the table larger)
-- misuse throws and changes nothing
ValueError: Rapier\Table::add(): Argument #1 ($key) must be 1 to 64 bytes long, 0 given
ValueError: Rapier\Table::add(): Argument #2 ($row) must name a column of the table ("owner", "n", "f"), "x" given
TypeError: Rapier\Table::replace(): Argument #3 ($expected) must hold an int in column "n", string given
ValueError: Rapier\Table::replace(): Argument #3 ($expected) must name a column of the table ("owner", "n", "f"), "nope" given
ValueError: Rapier\Table::replace(): Argument #3 ($expected) must map column names to values
TypeError: Rapier\Table::replace(): Argument #2 ($row) must hold an int in column "n", float given
ValueError: Rapier\Table::delete(): Argument #2 ($expected) must hold at most 16 bytes in column "owner", 17 given
TypeError: Rapier\Table::delete(): Argument #2 ($expected) must hold an int or a float in column "f", string given
array(3) {
  ["owner"]=>
  string(2) "me"
  ["n"]=>
  int(1)
  ["f"]=>
  float(0)
}
bool(false)
-- processes race
int(0)
int(0)
int(0)
int(300)
int(6000)
int(304)
