<?php

/*
 * Server-Sent Events loops as code written for php-fpm writes them, for the
 * apps' /events route (tests/Adapter/AppContract.php). The one that heeds
 * its client keeps running when its client leaves (ignore_user_abort) and
 * stops on its own once connection_aborted() says so; the one that does
 * not (?heed=0) never looks, and relies on PHP to end it at its first
 * output after its client left, as php-fpm does with ignore_user_abort
 * off. Where it stopped lands in a file that /events-seen reads back, since
 * its client is gone by then.
 */

declare(strict_types=1);

function rapier_test_events_file(string $id): string
{
    if (!ctype_alnum($id)) {
        throw new InvalidArgumentException('the id must be letters and digits');
    }

    return sys_get_temp_dir() . "/rapier-test-events-$id";
}

function rapier_test_event_stream(string $id, bool $heed): void
{
    if ($heed) {
        ignore_user_abort(true);
    }
    $file = rapier_test_events_file($id);
    for ($i = 1; $i <= 200; $i++) {
        echo "data: $i\n\n";
        if (ob_get_level() > 0) {
            ob_flush();
        }
        flush();
        if ($heed && connection_aborted()) {
            file_put_contents($file, 'stopped: connection_aborted()');

            return;
        }
        if (!$heed) {
            file_put_contents($file, "sent $i");
        }
        usleep(50000);
    }
    file_put_contents($file, $heed ? 'ran to the end: connection_aborted() never said the client left'
        : 'ran to the end: nothing ended it once its client left');
}

/*
 * Leaves ignore_user_abort on, as many a request does: the next request
 * must still start with PHP's default, as each php-fpm request does.
 */
function rapier_test_events_seen(string $id): string
{
    ignore_user_abort(true);
    $file = rapier_test_events_file($id);

    return is_file($file) ? (string) file_get_contents($file) : 'running';
}
