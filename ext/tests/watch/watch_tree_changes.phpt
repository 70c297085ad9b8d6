--TEST--
FileWatcher: reports changed, created and deleted files in a directory tree, including directories created after the watch; suspends only its coroutine
--EXTENSIONS--
rapier
--FILE--
<?php
$root = sys_get_temp_dir() . '/rapier-watch-' . getmypid();
mkdir("$root/app/sub", 0777, true);
file_put_contents("$root/app/a.php", "<?php\n");
file_put_contents("$root/config.php", "<?php\n");
mkdir("$root/app/.git");

$w = new Rapier\FileWatcher(["$root/app", "$root/config.php"]);
echo "watched: ", $w->count(), "\n";
$rel = fn(array $paths) => implode(' ', array_map(fn($p) => substr($p, strlen($root) + 1), $paths));

Rapier\run(function () use ($w, $root, $rel) {
    /* The write comes after five ticks, so wait() sees it only if the ticker ran meanwhile. */
    $ticks = 0;
    Rapier\go(function () use (&$ticks, $root) {
        for ($i = 0; $i < 5; $i++) {
            Rapier\Coroutine::sleep(0.01);
            $ticks++;
        }
        file_put_contents("$root/app/sub/b.php", "<?php\n");
    });
    $changes = $w->wait(30);
    echo "other coroutine ran meanwhile: ", $ticks, "\n";
    echo "changed: ", $rel($changes), "\n";

    echo "timeout: ", json_encode($w->wait(0.05)), "\n";

    file_put_contents("$root/config.php", "<?php return [];\n");
    echo "changed: ", $rel($w->wait(5)), "\n";

    mkdir("$root/app/new");
    $w->wait(5);
    file_put_contents("$root/app/new/c.php", "<?php\n");
    echo "in a new directory: ", $rel($w->wait(5)), "\n";

    file_put_contents("$root/app/.git/index", "x");
    unlink("$root/app/a.php");
    echo "deleted (dot directory ignored): ", $rel($w->wait(5)), "\n";
});

/* Outside a coroutine wait() blocks, as stock PHP would. */
touch("$root/app/sub/b.php");
echo "blocking: ", $rel($w->wait(5)), "\n";
$w->close();
try {
    $w->wait();
} catch (Rapier\Exception $e) {
    echo $e->getMessage(), "\n";
}
try {
    new Rapier\FileWatcher(["$root/missing"]);
} catch (Rapier\Exception $e) {
    echo str_replace($root, 'ROOT', $e->getMessage()), "\n";
}
try {
    new Rapier\FileWatcher([]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
exec('rm -rf ' . escapeshellarg($root));
?>
--EXPECT--
watched: 3
other coroutine ran meanwhile: 5
changed: app/sub/b.php
timeout: []
changed: config.php
in a new directory: app/new/c.php
deleted (dot directory ignored): app/a.php
blocking: app/sub/b.php
Cannot wait: the watcher is closed
Cannot watch ROOT/missing: No such file or directory
Rapier\FileWatcher::__construct(): Argument #1 ($paths) must not be empty
