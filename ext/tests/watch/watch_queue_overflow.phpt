--TEST--
FileWatcher: when the kernel's event queue overflows, the watched tree is reported as changed, and a directory created among the lost events is watched afterwards
--EXTENSIONS--
rapier
--SKIPIF--
<?php
$max = (int) @file_get_contents('/proc/sys/fs/inotify/max_queued_events');
if ($max <= 0 || $max > 100000) die("skip needs fs.inotify.max_queued_events known and at most 100000 (it is $max)");
?>
--FILE--
<?php
$root = sys_get_temp_dir() . '/rapier-watch-overflow-' . getmypid();
mkdir("$root/app", 0777, true);
$w = new Rapier\FileWatcher(["$root/app"]);
/* Each new file queues at least two events (created, closed after writing): twice what the queue holds overflows it. */
$files = (int) file_get_contents('/proc/sys/fs/inotify/max_queued_events');
for ($i = 0; $i < $files; $i++) {
    touch("$root/app/f$i");
}
/* Its IN_CREATE arrives after the overflow: lost. */
mkdir("$root/app/late");
$changed = $w->wait(5);
echo "the root reported: ", var_export(in_array("$root/app", $changed, true), true), "\n";
echo "watches: ", $w->count(), "\n";
file_put_contents("$root/app/late/x.php", "<?php\n");
$changed = $w->wait(5);
echo "in the late directory: ", var_export(in_array("$root/app/late/x.php", $changed, true), true), "\n";
$w->close();
for ($i = 0; $i < $files; $i++) {
    unlink("$root/app/f$i");
}
unlink("$root/app/late/x.php");
rmdir("$root/app/late");
rmdir("$root/app");
rmdir($root);
?>
--EXPECT--
the root reported: true
watches: 2
in the late directory: true
