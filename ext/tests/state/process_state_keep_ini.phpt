--TEST--
ProcessState: capture() takes ini settings, or an extension's ("session."), that restore() leaves as they are
--EXTENSIONS--
rapier
--INI--
session.name=PHPSESSID
--FILE--
<?php
use Rapier\ProcessState;

// Session settings cannot change once output has begun: print at the end.
$state = ProcessState::capture(['session.', 'precision']);
ini_set('session.name', 'APPSESSION');
ini_set('session.gc_maxlifetime', '60');
ini_set('precision', '3');
ini_set('serialize_precision', '5');
$kept = [$state->restore(), ini_get('session.name'), ini_get('session.gc_maxlifetime'), ini_get('precision'), ini_get('serialize_precision')];

// "session" without the dot is a name, and no setting is called that.
$state = ProcessState::capture(['session']);
ini_set('session.name', 'OTHER');
$named = $state->restore();

print_r($kept);
print_r($named);

foreach ([[1], [''], ['precision', null]] as $keep) {
    try {
        ProcessState::capture($keep);
    } catch (TypeError | ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
Array
(
    [0] => Array
        (
            [0] => ini:serialize_precision
        )

    [1] => APPSESSION
    [2] => 60
    [3] => 3
    [4] => -1
)
Array
(
    [0] => ini:session.name
)
TypeError: Rapier\ProcessState::capture(): Argument #1 ($keepIni) must contain only strings, int given
ValueError: Rapier\ProcessState::capture(): Argument #1 ($keepIni) must not contain an empty name
TypeError: Rapier\ProcessState::capture(): Argument #1 ($keepIni) must contain only strings, null given
