--TEST--
Runtime::enableHooks()/disableHooks()/getHooks() and the rapier.hooks ini
--EXTENSIONS--
rapier
--FILE--
<?php
var_dump(Rapier\Runtime::getHooks() === Rapier\HOOK_ALL);
Rapier\Runtime::disableHooks();
var_dump(Rapier\Runtime::getHooks());
Rapier\Runtime::enableHooks(Rapier\HOOK_TCP | Rapier\HOOK_SLEEP);
var_dump(Rapier\Runtime::getHooks() === (Rapier\HOOK_TCP | Rapier\HOOK_SLEEP));
try {
    Rapier\Runtime::enableHooks(1 << 30);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
ini_set('rapier.hooks', '0');
var_dump(Rapier\Runtime::getHooks());
ini_set('rapier.hooks', '1');
var_dump(Rapier\Runtime::getHooks() === Rapier\HOOK_ALL);
?>
--EXPECTF--
bool(true)
int(0)
bool(true)
Rapier\Runtime::enableHooks(): Argument #1 ($flags) must be a combination of the Rapier\HOOK_* constants
int(0)
bool(true)
