--TEST--
Table: a new row in a full table throws TableFullException and changes nothing; deleted rows are reused; incr() and decr() add as one step and refuse to overflow
--EXTENSIONS--
rapier
--FILE--
<?php
$t = new Rapier\Table(3, ['n' => 'int', 'f' => 'float']);
foreach (['a', 'b', 'c'] as $i => $key) {
    $t->set($key, ['n' => $i]);
}
foreach ([fn () => $t->set('d', ['n' => 9]), fn () => $t->incr('d', 'n'), fn () => $t->decr('d', 'f', 0.5)] as $f) {
    try {
        $f();
    } catch (Rapier\TableFullException $e) {
        echo get_class($e), ' (a Rapier\Exception: ', var_export($e instanceof Rapier\Exception, true), '): ', $e->getMessage(), "\n";
    }
}
var_dump($t->exists('d'), count($t));
echo "-- a full table still updates its rows\n";
$t->set('b', ['n' => 10]);
var_dump($t->incr('b', 'n', 5), $t->get('b', 'n'));

echo "-- a deleted row makes room, a thousand times over\n";
$t->delete('a');
for ($i = 0; $i < 1000; $i++) {
    $t->set("k$i", ['n' => $i]);
    if ($i < 999) {
        $t->delete("k$i");
    }
}
var_dump(count($t), $t->get('k999', 'n'), $t->exists('k998'));

echo "-- incr and decr\n";
$t->delete('k999');
var_dump($t->incr('x', 'n'), $t->incr('x', 'n', 41), $t->decr('x', 'n'), $t->decr('x', 'n', -10), $t->incr('x', 'n', -100));
var_dump($t->incr('x', 'f', 0.25), $t->incr('x', 'f', 2), $t->decr('x', 'f', 1.25), $t->get('x'));

echo "-- overflow\n";
$t->set('x', ['n' => PHP_INT_MAX - 1]);
var_dump($t->incr('x', 'n') === PHP_INT_MAX);
foreach ([fn () => $t->incr('x', 'n'), fn () => $t->decr('x', 'n', -1)] as $f) {
    try {
        $f();
    } catch (ArithmeticError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
$t->set('x', ['n' => PHP_INT_MIN]);
try {
    $t->decr('x', 'n');
} catch (ArithmeticError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($t->get('x', 'n') === PHP_INT_MIN, $t->decr('x', 'n', -1) === PHP_INT_MIN + 1);
?>
--EXPECT--
Rapier\TableFullException (a Rapier\Exception: true): Cannot add the row "d": all 3 rows of the table are taken (delete rows, or make the table larger)
Rapier\TableFullException (a Rapier\Exception: true): Cannot add the row "d": all 3 rows of the table are taken (delete rows, or make the table larger)
Rapier\TableFullException (a Rapier\Exception: true): Cannot add the row "d": all 3 rows of the table are taken (delete rows, or make the table larger)
bool(false)
int(3)
-- a full table still updates its rows
int(15)
int(15)
-- a deleted row makes room, a thousand times over
int(3)
int(999)
bool(false)
-- incr and decr
int(1)
int(42)
int(41)
int(51)
int(-49)
float(0.25)
float(2.25)
float(1)
array(2) {
  ["n"]=>
  int(-49)
  ["f"]=>
  float(1)
}
-- overflow
bool(true)
ArithmeticError: Cannot add 1 to column "n" of row "x": the int would overflow; the row is unchanged
ArithmeticError: Cannot subtract -1 from column "n" of row "x": the int would overflow; the row is unchanged
ArithmeticError: Cannot subtract 1 from column "n" of row "x": the int would overflow; the row is unchanged
bool(true)
bool(true)
