--TEST--
FileWatcher: a process forked from the one that made the watcher sees changes in a directory an earlier forked reader began to watch, and what was queued while no one read
--EXTENSIONS--
rapier
pcntl
--FILE--
<?php
$root = sys_get_temp_dir() . '/rapier-watch-fork-' . getmypid();
mkdir("$root/app", 0777, true);
$w = new Rapier\FileWatcher(["$root/app"]);
$rel = fn(array $paths) => implode(' ', array_map(fn($p) => substr($p, strlen($root) + 1), $paths));

/* What a restarted --watch process meets: each reader is forked from the watcher's maker, as the master forks it. */
function in_child(callable $fn): void
{
    $pid = pcntl_fork();
    if ($pid === 0) {
        $fn();
        exit(0);
    }
    pcntl_waitpid($pid, $status);
}

in_child(function () use ($w, $root, $rel) {
    mkdir("$root/app/new");
    echo "first reader: ", $rel($w->wait(5)), "\n";
    echo "first reader watches: ", $w->count(), "\n";
});
/* Written while no process reads: the event waits in the kernel's queue, under the first reader's watch. */
file_put_contents("$root/app/new/c.php", "<?php\n");
in_child(function () use ($w, $root, $rel) {
    echo "second reader: ", $rel($w->wait(5)), "\n";
    echo "second reader watches: ", $w->count(), "\n";
    file_put_contents("$root/app/new/d.php", "<?php\n");
    echo "second reader: ", $rel($w->wait(5)), "\n";
});
echo "the maker's table is its own: ", $w->count(), "\n";
$w->close();
array_map('unlink', glob("$root/app/new/*.php"));
rmdir("$root/app/new");
rmdir("$root/app");
rmdir($root);
?>
--EXPECT--
first reader: app/new
first reader watches: 2
second reader: app/new/c.php
second reader watches: 2
second reader: app/new/d.php
the maker's table is its own: 1
