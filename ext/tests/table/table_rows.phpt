--TEST--
Table: rows are set, read, updated column by column, and deleted; keys are bytes up to 64 of them
--EXTENSIONS--
rapier
--FILE--
<?php
$t = new Rapier\Table(16, ['hits' => 'int', 'score' => 'float', 'name' => 'string:12']);
var_dump(count($t), $t->size(), $t->memorySize() > 16 * 12, $t->columns(), Rapier\Table::KEY_MAX);

echo "-- a new row: the columns not given are 0, 0.0 and empty\n";
$t->set('alice', ['name' => 'Alice']);
var_dump($t->get('alice'), $t->exists('alice'), count($t));

echo "-- writing some columns keeps the others\n";
$t->set('alice', ['hits' => 7, 'score' => 2]);
$t->set('alice', ['score' => 2.5]);
var_dump($t->get('alice'));
var_dump($t->get('alice', 'hits'), $t->get('alice', 'score'), $t->get('alice', 'name'));

echo "-- strings are binary and may fill their column\n";
$t->set('bin', ['name' => "a\0b\xff" . str_repeat('z', 8)]);
var_dump(bin2hex($t->get('bin', 'name')), strlen($t->get('bin', 'name')));
$t->set('bin', ['name' => '']);
var_dump($t->get('bin', 'name'));

echo "-- keys are bytes\n";
$long = str_repeat('k', 64);
$t->set($long, ['hits' => 64]);
$t->set("a\0", ['hits' => 2]);
$t->set('a', ['hits' => 1]);
var_dump($t->get($long, 'hits'), $t->get("a\0", 'hits'), $t->get('a', 'hits'), $t->exists(substr($long, 1)));

echo "-- a missing row\n";
var_dump($t->get('nobody'), $t->get('nobody', 'hits'), $t->exists('nobody'), $t->delete('nobody'));

echo "-- delete\n";
var_dump(count($t), $t->delete('alice'), $t->delete('alice'), $t->get('alice'), count($t));
$t->set('alice', []);
var_dump($t->get('alice'));

echo "-- ints keep their 64 bits, floats their precision\n";
$t->set('n', ['hits' => PHP_INT_MIN, 'score' => 0.1 + 0.2]);
var_dump($t->get('n', 'hits') === PHP_INT_MIN, $t->get('n', 'score') === 0.1 + 0.2);
$t->set('n', ['score' => INF]);
var_dump($t->get('n', 'score'));
?>
--EXPECT--
int(0)
int(16)
bool(true)
array(3) {
  ["hits"]=>
  string(3) "int"
  ["score"]=>
  string(5) "float"
  ["name"]=>
  string(9) "string:12"
}
int(64)
-- a new row: the columns not given are 0, 0.0 and empty
array(3) {
  ["hits"]=>
  int(0)
  ["score"]=>
  float(0)
  ["name"]=>
  string(5) "Alice"
}
bool(true)
int(1)
-- writing some columns keeps the others
array(3) {
  ["hits"]=>
  int(7)
  ["score"]=>
  float(2.5)
  ["name"]=>
  string(5) "Alice"
}
int(7)
float(2.5)
string(5) "Alice"
-- strings are binary and may fill their column
string(24) "610062ff7a7a7a7a7a7a7a7a"
int(12)
string(0) ""
-- keys are bytes
int(64)
int(2)
int(1)
bool(false)
-- a missing row
NULL
NULL
bool(false)
bool(false)
-- delete
int(5)
bool(true)
bool(false)
NULL
int(4)
array(3) {
  ["hits"]=>
  int(0)
  ["score"]=>
  float(0)
  ["name"]=>
  string(0) ""
}
-- ints keep their 64 bits, floats their precision
bool(true)
bool(true)
float(INF)
