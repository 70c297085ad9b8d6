--TEST--
ProcessState: a request's set_time_limit() is disarmed, so it cannot end the process in a later request
--EXTENSIONS--
rapier
--INI--
max_execution_time=0
--FILE--
<?php
$state = Rapier\ProcessState::capture();

// Left armed, this limit ends the process once it has run 1 s more.
set_time_limit(1);
print_r($state->restore());
var_dump(ini_get('max_execution_time'));
$start = hrtime(true);
while (hrtime(true) - $start < 1_500_000_000);
echo "still running after the request's time limit\n";
?>
--EXPECT--
Array
(
    [0] => ini:max_execution_time
)
string(1) "0"
still running after the request's time limit
