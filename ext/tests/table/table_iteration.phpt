--TEST--
Table: foreach gives every row once as key => row; iterators are independent; rows deleted or set meanwhile do not break it
--EXTENSIONS--
rapier
--FILE--
<?php
$t = new Rapier\Table(100, ['n' => 'int', 'tag' => 'string:8']);
echo "empty: ", json_encode(iterator_to_array($t)), "\n";
for ($i = 0; $i < 50; $i++) {
    $t->set("row$i", ['n' => $i, 'tag' => $i % 2 ? 'odd' : 'even']);
}
for ($i = 0; $i < 50; $i += 5) {
    $t->delete("row$i");
}
$seen = [];
foreach ($t as $key => $row) {
    $seen[$key] = $row;
}
ksort($seen, SORT_NATURAL);
echo count($seen), " rows; each as it was set: ";
$ok = true;
foreach ($seen as $key => $row) {
    $i = (int) substr($key, 3);
    $ok = $ok && $i % 5 !== 0 && $row === ['n' => $i, 'tag' => $i % 2 ? 'odd' : 'even'];
}
var_dump($ok);

echo "-- two iterators at once are independent\n";
$pairs = 0;
foreach ($t as $a => $_) {
    foreach ($t as $b => $_) {
        $pairs++;
    }
}
var_dump($pairs === 40 * 40);
$it = $t->getIterator();
var_dump($it instanceof Iterator);
$it->rewind();
$first = $it->key();
$it->next();
$it->rewind();
var_dump($it->key() === $first, $it->valid());

echo "-- deleting every row while iterating visits each live row once\n";
$visited = 0;
foreach ($t as $key => $row) {
    $visited++;
    foreach ($t as $other => $_) {
        if ($other !== $key) {
            $t->delete($other);
            break;
        }
    }
    $t->delete($key);
}
var_dump($visited >= 20 && $visited <= 40, count($t), iterator_to_array($t));

echo "-- rows set while iterating: no row twice, the iteration ends\n";
$t->set('a', ['n' => 1]);
$keys = [];
foreach ($t as $key => $row) {
    $keys[] = $key;
    if (count($keys) < 60) {
        $t->set('new' . count($keys), ['n' => 0]);
    }
}
var_dump(count($keys) === count(array_unique($keys)), count($keys) <= 60);
?>
--EXPECT--
empty: []
40 rows; each as it was set: bool(true)
-- two iterators at once are independent
bool(true)
bool(true)
bool(true)
bool(true)
-- deleting every row while iterating visits each live row once
bool(true)
int(0)
array(0) {
}
-- rows set while iterating: no row twice, the iteration ends
bool(true)
bool(true)
