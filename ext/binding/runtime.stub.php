<?php

/** @generate-class-entries */

namespace Rapier {
    /** Which blocking PHP functions yield to the event loop inside coroutines. */
    final class Runtime
    {
        private function __construct() {}

        /**
         * Hooks the facilities in $flags (Rapier\HOOK_*), replacing the current set.
         *
         * @throws \ValueError when $flags has bits outside Rapier\HOOK_ALL
         */
        public static function enableHooks(int $flags = \Rapier\HOOK_ALL): void {}

        /** Restores stock behaviour for every facility. */
        public static function disableHooks(): void {}

        /** The Rapier\HOOK_* flags in force. */
        public static function getHooks(): int {}
    }
}
