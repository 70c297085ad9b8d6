<?php

/*
 * PHP's process-wide settings for the apps' /settings routes
 * (tests/Adapter/AppContract.php): one request changes each of them, the
 * next reads them back. php-fpm starts every request from php.ini; a
 * resident worker must put back what a request changed.
 */

declare(strict_types=1);

/** What a request sees of each setting. */
function rapier_test_settings(): array
{
    $error = set_error_handler(null);
    restore_error_handler();
    $exception = set_exception_handler(null);
    restore_exception_handler();
    // Whether mt_rand() draws what mt_srand(42) makes it draw: a seed left by the previous request.
    $first = mt_rand();
    mt_srand(42);
    $predictable = $first === mt_rand();
    mt_srand();

    return [
        'precision' => ini_get('precision'),
        'max_execution_time' => ini_get('max_execution_time'),
        'error_handler' => rapier_test_settings_owns($error),
        'exception_handler' => rapier_test_settings_owns($exception),
        'env' => getenv('RAPIER_TEST_SETTING'),
        'stream_context_default' => stream_context_get_options(stream_context_get_default()),
        'locale' => setlocale(LC_ALL, '0'),
        'timezone' => date_default_timezone_get(),
        'cwd' => getcwd(),
        'umask' => umask(),
        'mb_internal_encoding' => mb_internal_encoding(),
        'libxml_use_internal_errors' => libxml_use_internal_errors(),
        'mt_rand_predictable' => $predictable,
    ];
}

/** Changes every setting rapier_test_settings() reads, and returns what it then reads. */
function rapier_test_settings_change(): array
{
    ini_set('precision', '3');
    set_time_limit(600);
    set_error_handler(static fn (): bool => true);
    set_exception_handler(static function (Throwable $e): void {
    });
    putenv('RAPIER_TEST_SETTING=changed');
    stream_context_set_default(['ssl' => ['verify_peer' => false]]);
    setlocale(LC_ALL, 'C.UTF-8');
    date_default_timezone_set('Pacific/Chatham');
    chdir('/');
    umask(0077);
    mb_internal_encoding('ISO-8859-1');
    libxml_use_internal_errors(true);
    mt_srand(42);
    $seen = rapier_test_settings();
    // Left seeded, as a request that drew a reproducible sample leaves it.
    mt_srand(42);

    return $seen;
}

/** Whether $handler is one this file set: a request's, seen by the next. */
function rapier_test_settings_owns(mixed $handler): bool
{
    return $handler instanceof Closure && (new ReflectionFunction($handler))->getFileName() === __FILE__;
}
