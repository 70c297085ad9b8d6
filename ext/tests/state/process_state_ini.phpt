--TEST--
ProcessState: ini settings a request changes go back to boot's values, boot's own changes stay
--EXTENSIONS--
rapier
--INI--
precision=14
serialize_precision=-1
error_reporting=E_ALL
--FILE--
<?php
use Rapier\ProcessState;

// Boot changes two settings; the snapshot keeps them.
ini_set('precision', '10');
set_include_path('/boot');
$state = ProcessState::capture();
var_dump($state->restore());

// A request changes a boot setting, a fresh one, and one through a function.
ini_set('precision', '3');
ini_set('serialize_precision', '5');
error_reporting(E_ERROR);
set_include_path('/request');
echo 1 / 3, "\n";
print_r($state->restore());
var_dump(ini_get('precision'), ini_get('serialize_precision'), error_reporting() === E_ALL, get_include_path());
echo 1 / 3, "\n";

// ini_restore() takes a boot setting back to php.ini's: restore() sets boot's again.
ini_restore('precision');
var_dump(ini_get('precision'));
print_r($state->restore());
var_dump(ini_get('precision'));

// Set to the same value again: nothing to report.
ini_set('precision', '10');
ini_set('serialize_precision', '-1');
var_dump($state->restore());
?>
--EXPECT--
array(0) {
}
0.333
Array
(
    [0] => ini:precision
    [1] => ini:include_path
    [2] => ini:serialize_precision
    [3] => ini:error_reporting
)
string(2) "10"
string(2) "-1"
bool(true)
string(5) "/boot"
0.3333333333
string(2) "14"
Array
(
    [0] => ini:precision
)
string(2) "10"
array(0) {
}
