--TEST--
ProcessState: a request's mt_srand() does not make later mt_rand(), rand(), shuffle() or str_shuffle() predictable: restore() drops the seed, as a php-fpm request's start does
--EXTENSIONS--
rapier
--FILE--
<?php
$draw = fn (): array => [mt_rand(), rand(), str_shuffle('abcdefghijklmnopqrstuvwxyz'), mt_rand(1, PHP_INT_MAX)];

mt_srand(42);
$seeded = $draw();
mt_srand(42);
var_dump($draw() === $seeded);

$state = Rapier\ProcessState::capture();
// A request seeds for its own reasons (a sample, a test fixture) and ends.
mt_srand(42);
$state->restore();
var_dump($draw() === $seeded);

// Left seeded, every later request would have drawn this sequence.
mt_srand(42);
$draw();
$state->restore();
mt_srand(42);
var_dump($draw() === $seeded);
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
