--TEST--
ProcessState: environment variables, locale, timezone, working directory, umask, mbstring and libxml settings go back
--EXTENSIONS--
rapier
mbstring
simplexml
--ENV--
RAPIER_KEEP=boot
RAPIER_CHANGE=boot
RAPIER_REMOVE=boot
--INI--
date.timezone=UTC
--FILE--
<?php
use Rapier\ProcessState;

$dir = sys_get_temp_dir() . '/rapier-state-' . getmypid();
@mkdir($dir);
chdir(__DIR__);
umask(022);
$state = ProcessState::capture();
$boot = [setlocale(LC_ALL, '0'), getcwd()];

putenv('RAPIER_CHANGE=request');
putenv('RAPIER_REMOVE');
putenv('RAPIER_ADDED=request');
setlocale(LC_NUMERIC, 'C.UTF-8');
date_default_timezone_set('Asia/Tokyo');
chdir($dir);
umask(077);
mb_internal_encoding('ISO-8859-1');
libxml_use_internal_errors(true);
simplexml_load_string('<unclosed>');

$restored = $state->restore();
sort($restored);
print_r($restored);
var_dump(getenv('RAPIER_KEEP'), getenv('RAPIER_CHANGE'), getenv('RAPIER_REMOVE'), getenv('RAPIER_ADDED'));
var_dump([setlocale(LC_ALL, '0'), getcwd()] === $boot);
var_dump(date_default_timezone_get(), decoct(umask()), mb_internal_encoding());
var_dump(libxml_use_internal_errors(), libxml_get_errors());
var_dump($state->restore());

// A directory that is gone cannot be gone back to: left, unreported.
chdir($dir);
$state = ProcessState::capture();
chdir(__DIR__);
rmdir($dir);
var_dump($state->restore(), getcwd() === __DIR__);
?>
--EXPECT--
Array
(
    [0] => cwd
    [1] => env:RAPIER_ADDED
    [2] => env:RAPIER_CHANGE
    [3] => env:RAPIER_REMOVE
    [4] => libxml_use_internal_errors
    [5] => locale
    [6] => mb_internal_encoding
    [7] => timezone
    [8] => umask
)
string(4) "boot"
string(4) "boot"
string(4) "boot"
bool(false)
bool(true)
string(3) "UTC"
string(2) "22"
string(5) "UTF-8"
bool(false)
array(0) {
}
array(0) {
}
array(0) {
}
bool(true)
