<?php

/*
 * A Server-Sent Events loop as code written for php-fpm writes one, for the
 * apps' /events route (tests/Adapter/AppContract.php): it keeps running
 * when its client leaves (ignore_user_abort), and stops on its own once
 * connection_aborted() says so. Where it stopped lands in a file that
 * /events-seen reads back, since its client is gone by then.
 */

declare(strict_types=1);

function rapier_test_events_file(string $id): string
{
    if (!ctype_alnum($id)) {
        throw new InvalidArgumentException('the id must be letters and digits');
    }

    return sys_get_temp_dir() . "/rapier-test-events-$id";
}

function rapier_test_event_stream(string $id): void
{
    ignore_user_abort(true);
    $file = rapier_test_events_file($id);
    for ($i = 1; $i <= 200; $i++) {
        echo "data: $i\n\n";
        if (ob_get_level() > 0) {
            ob_flush();
        }
        flush();
        if (connection_aborted()) {
            file_put_contents($file, 'stopped: connection_aborted()');

            return;
        }
        usleep(50000);
    }
    file_put_contents($file, 'ran to the end: connection_aborted() never said the client left');
}

function rapier_test_events_seen(string $id): string
{
    $file = rapier_test_events_file($id);

    return is_file($file) ? (string) file_get_contents($file) : 'running';
}
