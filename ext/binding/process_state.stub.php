<?php

/** @generate-class-entries */

namespace Rapier {
    /**
     * The settings PHP keeps for the whole process, taken at one moment and
     * put back later: what a resident server does between requests so that
     * one request's ini_set(), putenv() or set_error_handler() does not
     * reach the next, as php-fpm starts each request afresh.
     *
     * It covers ini settings (ini_set(), set_time_limit(), error_reporting(),
     * set_include_path()), the error and exception handlers with their stacks,
     * environment variables (putenv()), the default stream context's options
     * (stream_context_set_default()), the locale (setlocale()), the default
     * timezone, the working directory, the umask, mb_internal_encoding() and
     * libxml_use_internal_errors().
     *
     * Process-wide: restore() while another coroutine is in the middle of a
     * request takes that request's settings away too. Use it where one
     * request runs at a time (the framework adapters, concurrency 1).
     *
     * @strict-properties
     * @not-serializable
     */
    final class ProcessState
    {
        private function __construct() {}

        /**
         * The settings as they are now: call it when boot is done.
         *
         * $keepIni names ini settings restore() leaves as they are, a name
         * ending in "." all of its extension's ("session.": a framework's
         * session storage sets them once, when it is created, for every
         * request after).
         *
         * @param string[] $keepIni
         * @throws \TypeError if an entry of $keepIni is not a string
         * @throws \ValueError if an entry of $keepIni is empty
         */
        public static function capture(array $keepIni = []): ProcessState {}

        /**
         * Puts back every setting that differs from what capture() took, and
         * returns what it put back: "ini:<name>", "error_handler",
         * "exception_handler", "env:<name>", "stream_context_default",
         * "locale", "timezone", "cwd",
         * "umask", "mb_internal_encoding", "libxml_use_internal_errors".
         * A setting that cannot be put back now (memory_limit below the
         * memory in use, a directory since removed) is left as it is,
         * silently, and tried again by the next restore(). The seeds of
         * mt_rand() (rand(), shuffle()...) and lcg_value() are dropped, as
         * at the start of a php-fpm request: the next use seeds afresh.
         *
         * @return list<string>
         */
        public function restore(): array {}
    }
}
