<?php

/*
 * Messages between workers (Server::sendMessage(), broadcastMessage()): how
 * many a second one worker sends another, and broadcasts to both, for a few
 * payload sizes. A server with 2 workers runs in a child process; a request
 * makes the worker it lands on send N messages and answers, once every
 * receiver has started the handler of the last one, how long that took.
 * The best of several rounds. A measurement, not a test: nothing here
 * passes or fails.
 *
 *     php -d extension=ext/modules/rapier.so bench/messages.php [--messages=N] [--rounds=R]
 */

declare(strict_types=1);

require __DIR__ . '/../scripts/lib/proc.php';

const SIZES = [16, 1024, 16384];

/* The server itself: php bench/messages.php --serve PORT */
function serve(int $port): void
{
    $server = new Rapier\Http\Server('127.0.0.1', $port, ['workers' => 2]);
    // How many receivers have had the last message, shared by both workers.
    $done = new Rapier\Table(2, ['n' => 'int']);
    $server->on('request', function (Rapier\Http\Request $req, Rapier\Http\Response $res) use ($server, $done): void {
        $n = (int) $req->query['n'];
        $payload = str_repeat('x', (int) $req->query['size']);
        $receivers = isset($req->query['all']) ? 2 : 1;
        $done->set('last', ['n' => 0]);
        $start = hrtime(true);
        for ($i = 1; $i <= $n; $i++) {
            if ($receivers === 2) {
                $server->broadcastMessage([$i, $n, $payload]);
            } else {
                $server->sendMessage([$i, $n, $payload], 1 - $server->workerId());
            }
        }
        while ($done->get('last', 'n') < $receivers) {
            Rapier\Coroutine::sleep(0.0005);
        }
        $res->end((string) ((hrtime(true) - $start) / 1e9));
    });
    $server->on('message', function (array $m) use ($done): void {
        // From one sender the messages come in order: the last one's handler starts last.
        if ($m[0] === $m[1]) {
            $done->incr('last', 'n');
        }
    });
    $server->start();
}

if (($argv[1] ?? '') === '--serve') {
    serve((int) $argv[2]);
    exit(0);
}

$options = getopt('', ['messages:', 'rounds:']);
$messages = (int) ($options['messages'] ?? 200_000);
$rounds = (int) ($options['rounds'] ?? 3);
if ($messages < 1 || $rounds < 1) {
    fwrite(STDERR, "usage: php {$argv[0]} [--messages=N] [--rounds=R]   (both >= 1)\n");
    exit(2);
}
$ext = loaded_rapier_extension_or_exit('bench/messages.php');
$port = free_tcp_port();
$server = proc_open([PHP_BINARY, '-n', '-d', "extension=$ext", __FILE__, '--serve', (string) $port],
    [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
try {
    $deadline = microtime(true) + 10;
    while (@fsockopen('127.0.0.1', $port) === false) {
        if (microtime(true) > $deadline) {
            fwrite(STDERR, "bench/messages.php: the server did not start\n");
            exit(1);
        }
        usleep(50000);
    }
    printf("%s messages per run, best of %d rounds, 2 workers (%d CPUs)\n\n", number_format($messages), $rounds,
        (int) shell_exec('nproc'));
    printf("| payload | one worker to the other | broadcast (to both, itself included) |\n| --: | --: | --: |\n");
    foreach (SIZES as $size) {
        $row = [];
        foreach (['', '&all=1'] as $to) {
            $best = INF;
            for ($r = 0; $r < $rounds; $r++) {
                $answer = @file_get_contents("http://127.0.0.1:$port/?n=$messages&size=$size$to");
                if (!is_numeric($answer) || (float) $answer <= 0) {
                    fwrite(STDERR, "bench/messages.php: the server failed (run it alone to see why: php -d extension=$ext "
                        . __FILE__ . " --serve $port)\n");
                    exit(1);
                }
                $best = min($best, (float) $answer);
            }
            $row[] = sprintf('%s a second', number_format($messages / $best));
        }
        printf("| %s bytes | %s | %s |\n", number_format($size), ...$row);
    }
} finally {
    proc_terminate($server, 15);
    proc_close($server);
}
