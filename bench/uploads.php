<?php

/*
 * Large request bodies: what many concurrent uploads cost the worker that
 * takes them, with bodies spooled to disk past body_buffer_size (the
 * default, 1 MiB), with every body kept in memory (body_buffer_size 0,
 * as before spooling), and read by the handler while they arrive
 * (request_buffering off: neither disk nor memory holds them). A server with one worker runs in a child process;
 * C clients PUT an S MiB body each at once, the handler hashes it from
 * bodyStream() and answers the hash, which the client checks. Reported:
 * the worker's peak RSS (VmHWM) and the upload rate. The server runs
 * without a memory_limit: with PHP's default 128M the bodies kept in
 * memory end the worker with a fatal error at a few concurrent uploads.
 * A measurement, not a test: nothing here passes or fails.
 *
 *     php -d extension=ext/modules/rapier.so bench/uploads.php [--clients=C] [--mib=S]
 */

declare(strict_types=1);

require __DIR__ . '/../scripts/lib/proc.php';

/* The server itself: php bench/uploads.php --serve PORT BODY_BUFFER_SIZE REQUEST_BUFFERING */
function serve(int $port, int $bodyBufferSize, bool $requestBuffering): void
{
    $server = new Rapier\Http\Server('127.0.0.1', $port, [
        'workers' => 1,
        'body_buffer_size' => $bodyBufferSize,
        'request_buffering' => $requestBuffering,
        'max_body_size' => 1 << 30,
    ]);
    $server->on('request', function (Rapier\Http\Request $req, Rapier\Http\Response $res): void {
        if ($req->path === '/pid') {
            $res->end((string) getmypid());
            return;
        }
        $hash = hash_init('md5');
        hash_update_stream($hash, $req->bodyStream());
        $res->end(hash_final($hash));
    });
    $server->start();
}

/** Puts $file to the server from $clients clients at once; the seconds it took, or null when an answer was wrong. */
function upload_all(int $port, string $file, int $clients): ?float
{
    $expected = md5_file($file);
    $multi = curl_multi_init();
    $handles = [];
    for ($i = 0; $i < $clients; $i++) {
        $h = curl_init("http://127.0.0.1:$port/upload");
        curl_setopt_array($h, [
            CURLOPT_UPLOAD => true,
            CURLOPT_INFILE => fopen($file, 'rb'),
            CURLOPT_INFILESIZE => filesize($file),
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_HTTPHEADER => ['Expect:'],
        ]);
        curl_multi_add_handle($multi, $h);
        $handles[] = $h;
    }
    $start = hrtime(true);
    do {
        $status = curl_multi_exec($multi, $running);
        if ($running) {
            curl_multi_select($multi, 1.0);
        }
    } while ($running && $status === CURLM_OK);
    $seconds = (hrtime(true) - $start) / 1e9;
    $right = 0;
    foreach ($handles as $h) {
        $right += curl_multi_getcontent($h) === $expected ? 1 : 0;
        curl_multi_remove_handle($multi, $h);
    }
    curl_multi_close($multi);
    return $right === $clients ? $seconds : null;
}

if (($argv[1] ?? '') === '--serve') {
    serve((int) $argv[2], (int) $argv[3], (bool) $argv[4]);
    exit(0);
}

$options = getopt('', ['clients:', 'mib:']);
$clients = (int) ($options['clients'] ?? 50);
$mib = (int) ($options['mib'] ?? 20);
if ($clients < 1 || $mib < 1) {
    fwrite(STDERR, "usage: php {$argv[0]} [--clients=C] [--mib=S]   (both >= 1)\n");
    exit(2);
}
$ext = loaded_rapier_extension_or_exit('bench/uploads.php');
$file = tempnam(sys_get_temp_dir(), 'rapier-bench-upload-');
$chunk = random_bytes(1 << 20);
$out = fopen($file, 'wb');
for ($i = 0; $i < $mib; $i++) {
    fwrite($out, $chunk);
}
fclose($out);

printf("%d clients at once, %d MiB each, one worker (%d CPUs)\n\n", $clients, $mib, (int) shell_exec('nproc'));
printf("| bodies | worker peak RSS | upload rate |\n| --- | --: | --: |\n");
try {
    $modes = [
        'spooled past 1 MiB (the default)' => [1 << 20, 1],
        'kept in memory (body_buffer_size 0)' => [0, 1],
        'read while they arrive (request_buffering off)' => [1 << 20, 0],
    ];
    foreach ($modes as $what => [$bound, $buffering]) {
        $port = free_tcp_port();
        // No memory_limit: kept in memory, the bodies pass PHP's default 128M long before the kernel's limits.
        $server = proc_open([PHP_BINARY, '-n', '-d', "extension=$ext", '-d', 'memory_limit=-1', __FILE__, '--serve',
            (string) $port, (string) $bound, (string) $buffering],
            [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        try {
            $deadline = microtime(true) + 10;
            while (($pid = (int) @file_get_contents("http://127.0.0.1:$port/pid")) === 0) {
                if (microtime(true) > $deadline) {
                    fwrite(STDERR, "bench/uploads.php: the server did not start\n");
                    exit(1);
                }
                usleep(50000);
            }
            $seconds = upload_all($port, $file, $clients);
            if ($seconds === null) {
                fwrite(STDERR, "bench/uploads.php: a body arrived wrong ($what)\n");
                exit(1);
            }
            printf("| %s | %s MiB | %s MiB/s |\n", $what, number_format(proc_status_kib($pid, 'VmHWM') / 1024, 1),
                number_format($clients * $mib / $seconds));
        } finally {
            proc_terminate($server, 15);
            proc_close($server);
        }
    }
} finally {
    unlink($file);
}
