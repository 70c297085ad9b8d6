--TEST--
Table: misuse throws a ValueError, TypeError or Error that says what to do, and a call that throws changes nothing
--EXTENSIONS--
rapier
--FILE--
<?php
function attempt(callable $f): void
{
    try {
        $f();
        echo "no exception\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}

echo "-- the constructor\n";
attempt(fn () => new Rapier\Table(0, ['a' => 'int']));
attempt(fn () => new Rapier\Table(1 << 30 + 1, ['a' => 'int']));
attempt(fn () => new Rapier\Table(8, []));
attempt(fn () => new Rapier\Table(8, array_fill_keys(array_map(fn ($i) => "c$i", range(1, 65)), 'int')));
attempt(fn () => new Rapier\Table(8, ['int']));
attempt(fn () => new Rapier\Table(8, ['' => 'int']));
attempt(fn () => new Rapier\Table(8, ['a' => 4]));
foreach (['string', 'string:', 'string:0', 'string:-1', 'string:1048577', 'string:12x', 'string:012', 'INT', 'bool'] as $type) {
    attempt(fn () => new Rapier\Table(8, ['a' => $type]));
}
$t = new Rapier\Table(8, ['hits' => 'int', 'score' => 'float', 'name' => 'string:4']);
attempt(fn () => $t->__construct(8, ['a' => 'int']));
attempt(fn () => clone $t);
attempt(fn () => serialize($t));
attempt(function () use ($t) { foreach ($t as &$row) {} });

echo "-- keys\n";
attempt(fn () => $t->set('', []));
attempt(fn () => $t->get(str_repeat('k', 65)));
attempt(fn () => $t->exists(''));
attempt(fn () => $t->delete(''));
attempt(fn () => $t->incr('', 'hits'));

echo "-- columns and values; the row is left as it was\n";
$t->set('r', ['hits' => 1, 'score' => 1.5, 'name' => 'abc']);
attempt(fn () => $t->set('r', ['hits' => 2, 'nope' => 1]));
attempt(fn () => $t->set('r', ['hits' => 2, 'score' => '2']));
attempt(fn () => $t->set('r', ['hits' => 2.0]));
attempt(fn () => $t->set('r', ['hits' => '2']));
attempt(fn () => $t->set('r', ['hits' => null]));
attempt(fn () => $t->set('r', ['hits' => 2, 'name' => 'abcde']));
attempt(fn () => $t->set('r', ['name' => 5]));
attempt(fn () => $t->set('r', [2]));
attempt(fn () => $t->set('new', ['hits' => 'x']));
var_dump($t->get('r'), $t->exists('new'), count($t));
attempt(fn () => $t->get('r', 'nope'));
attempt(fn () => $t->incr('r', 'nope'));
attempt(fn () => $t->incr('r', 'name'));
attempt(fn () => $t->incr('r', 'hits', 1.5));
attempt(fn () => $t->decr('r', 'hits', PHP_INT_MIN));
var_dump($t->get('r'));
?>
--EXPECT--
-- the constructor
ValueError: Rapier\Table::__construct(): Argument #1 ($size) must be between 1 and 1073741824
ValueError: Rapier\Table::__construct(): Argument #1 ($size) must be between 1 and 1073741824
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must have 1 to 64 columns, 0 given
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must have 1 to 64 columns, 65 given
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must map column names to types; key 0 is not a name
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must not have a column with an empty name
TypeError: Rapier\Table::__construct(): Argument #2 ($columns) must give column "a" its type as a string ("int", "float" or "string:N"), int given
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must give column "a" the type "int", "float" or "string:N" (N the most bytes a value holds, 1 to 1048576), "string" given
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must give column "a" the type "int", "float" or "string:N" (N the most bytes a value holds, 1 to 1048576), "string:" given
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must give column "a" the type "int", "float" or "string:N" (N the most bytes a value holds, 1 to 1048576), "string:0" given
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must give column "a" the type "int", "float" or "string:N" (N the most bytes a value holds, 1 to 1048576), "string:-1" given
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must give column "a" the type "int", "float" or "string:N" (N the most bytes a value holds, 1 to 1048576), "string:1048577" given
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must give column "a" the type "int", "float" or "string:N" (N the most bytes a value holds, 1 to 1048576), "string:12x" given
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must give column "a" the type "int", "float" or "string:N" (N the most bytes a value holds, 1 to 1048576), "string:012" given
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must give column "a" the type "int", "float" or "string:N" (N the most bytes a value holds, 1 to 1048576), "INT" given
ValueError: Rapier\Table::__construct(): Argument #2 ($columns) must give column "a" the type "int", "float" or "string:N" (N the most bytes a value holds, 1 to 1048576), "bool" given
Error: Rapier\Table is already constructed
Error: Trying to clone an uncloneable object of class Rapier\Table
Exception: Serialization of 'Rapier\Table' is not allowed
Error: Rows of a Rapier\Table cannot be iterated by reference; write them back with set()
-- keys
ValueError: Rapier\Table::set(): Argument #1 ($key) must be 1 to 64 bytes long, 0 given
ValueError: Rapier\Table::get(): Argument #1 ($key) must be 1 to 64 bytes long, 65 given
ValueError: Rapier\Table::exists(): Argument #1 ($key) must be 1 to 64 bytes long, 0 given
ValueError: Rapier\Table::delete(): Argument #1 ($key) must be 1 to 64 bytes long, 0 given
ValueError: Rapier\Table::incr(): Argument #1 ($key) must be 1 to 64 bytes long, 0 given
-- columns and values; the row is left as it was
ValueError: Rapier\Table::set(): Argument #2 ($row) must name a column of the table ("hits", "score", "name"), "nope" given
TypeError: Rapier\Table::set(): Argument #2 ($row) must hold an int or a float in column "score", string given
TypeError: Rapier\Table::set(): Argument #2 ($row) must hold an int in column "hits", float given
TypeError: Rapier\Table::set(): Argument #2 ($row) must hold an int in column "hits", string given
TypeError: Rapier\Table::set(): Argument #2 ($row) must hold an int in column "hits", null given
ValueError: Rapier\Table::set(): Argument #2 ($row) must hold at most 4 bytes in column "name", 5 given
TypeError: Rapier\Table::set(): Argument #2 ($row) must hold a string in column "name", int given
ValueError: Rapier\Table::set(): Argument #2 ($row) must map column names to values
TypeError: Rapier\Table::set(): Argument #2 ($row) must hold an int in column "hits", string given
array(3) {
  ["hits"]=>
  int(1)
  ["score"]=>
  float(1.5)
  ["name"]=>
  string(3) "abc"
}
bool(false)
int(1)
ValueError: Rapier\Table::get(): Argument #2 ($column) must name a column of the table ("hits", "score", "name"), "nope" given
ValueError: Rapier\Table::incr(): Argument #2 ($column) must name a column of the table ("hits", "score", "name"), "nope" given
ValueError: Rapier\Table::incr(): Argument #2 ($column) must name an int or float column, "name" is a string column
TypeError: Rapier\Table::incr(): Argument #3 ($by) must be of type int for int column "hits", float given
ArithmeticError: Cannot subtract PHP_INT_MIN: its negation is not an int
array(3) {
  ["hits"]=>
  int(1)
  ["score"]=>
  float(1.5)
  ["name"]=>
  string(3) "abc"
}
