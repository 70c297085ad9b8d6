--TEST--
Hostile: HTTP/2 connections sending seeded random mixes of frames (requests with valid and malformed header blocks, CONTINUATION, DATA past limits or on the wrong stream, resets, window updates up to overflow, settings, pings, priorities, unknown types, garbage) while handlers stream, sleep, throw and take uploads, beside sound connections whose every stream (interleaved bodies, split or padded header blocks, small windows) must end with the right status and body: the worker never dies, every check between them is answered, no temporary file or connection is left behind and the server stops cleanly
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/../http2/h2.inc';
require __DIR__ . '/random.inc';

$dir = sys_get_temp_dir() . '/rapier-h2-random-' . getmypid();
mkdir($dir);
$srv = http_server_start(RANDOM_HANDLER, [
    'http2' => true,
    'http2_max_concurrent_streams' => 8,
    'concurrency' => 4,
    'max_body_size' => 65536,
    'max_header_size' => 4096,
    'max_header_count' => 40,
    'read_timeout' => http_test_timeout(1),
    'write_timeout' => http_test_timeout(1),
], '', '', ['upload_tmp_dir' => $dir]);
$port = $srv->port;

/** An HPACK field: a literal with a new name (0x00, 0x10 never indexed, 0x40 indexed) or an entry of the static table. */
function random_field(): string
{
    $names = ['accept', 'content-type', 'x-a', 'cookie', 'te', 'connection', 'Upper', 'bad name', '', ':path',
        ':method', ':status', ':protocol', 'content-length', 'host', 'x-' . str_repeat('n', mt_rand(1, 300))];
    $values = ['', 'x', 'trailers', 'gzip', '-1', '0', '99999999999999999999', "a\0b", "a\r\nb", ' lead', 'trail ',
        str_repeat('v', mt_rand(100, 5000)), random_bytes(mt_rand(1, 40))];
    switch (mt_rand(0, 5)) {
        case 0:
            return h2_hpack_int(mt_rand(0, 70), 7, 0x80);      /* indexed: 0 and past 61 are errors */
        case 1:
            return h2_hpack_int(mt_rand(0, 8192), 5, 0x20);    /* a dynamic table size update */
        default:
            $name = $names[array_rand($names)];
            $value = $values[array_rand($values)];
            $first = [0x00, 0x10, 0x40][mt_rand(0, 2)];
            return chr($first) . h2_hpack_int(strlen($name), 7) . $name . h2_hpack_int(strlen($value), 7) . $value;
    }
}

/* random_bytes() refuses a length of 0. */
function some_bytes(int $length): string
{
    return $length > 0 ? random_bytes($length) : '';
}

function random_block(string $path): string
{
    $fields = mt_rand(0, 4) ? h2_request_fields(['GET', 'POST', 'HEAD', 'PUT', 'CONNECT', 'BREW'][mt_rand(0, 5)], $path) : [];
    if (mt_rand(0, 3) === 0) {
        shuffle($fields);
    }
    $block = h2_header_block(mt_rand(0, 5) ? $fields : array_slice($fields, 1));
    for ($i = mt_rand(0, mt_rand(0, 1) ? 3 : 60); $i > 0; $i--) {
        $block .= random_field();
    }
    return mt_rand(0, 15) ? $block : random_bytes(mt_rand(1, 64));
}

/*
 * One hostile connection. Most of its frames are sound, so that streams get
 * as far as their handlers, uploads as far as their temporary files, and
 * resets and closes land while those run; each frame is broken in one of
 * many ways with the connection's own odds (1 in 50 to 1 in 3).
 */
function hostile_connection(int $port): void
{
    $paths = ['/', '/echo', '/stream', '/big', '/sleep', '/upload', '/throw', '/nowhere'];
    $odds = [50, 10, 3][mt_rand(0, 2)];
    $broken = fn () => mt_rand(1, $odds) === 1;
    $settings = mt_rand(0, 3) ? [] : [4 => $broken() ? 0 : mt_rand(1000, 70000), 2 => mt_rand(0, 1)];
    $c = new H2TestConn($port, !$broken() || mt_rand(0, 1), $settings);
    $next = 1;
    $open = [];          /* streams whose request body is still to come */
    $frames = mt_rand(1, 40);
    for ($i = 0; $i < $frames && !$c->closed; $i++) {
        $stream = $open && mt_rand(0, 4) ? $open[array_rand($open)] : max(1, $next - 2);
        if ($broken()) {
            $stream = [0, 2, $next + 10, mt_rand(1, 0x7fffffff)][mt_rand(0, 3)];
        }
        $action = mt_rand(0, 12);
        if (($next === 1 || ($action >= 4 && $action <= 7 && !$open)) && !$broken()) {
            $action = 0;    /* a request first: frames for a stream never opened end the connection */
        }
        switch ($action) {
            case 0:
            case 1:
            case 2:
            case 3:
                $path = $paths[array_rand($paths)];
                $upload = $path === '/upload' || $path === '/echo';
                $more = $path === '/upload' ? [['content-type', RANDOM_MULTIPART_TYPE]] : [];
                $end = !$upload || mt_rand(0, 5) === 0;
                $block = $broken() ? random_block($path)
                    : h2_header_block(h2_request_fields($upload ? 'POST' : (mt_rand(0, 5) ? 'GET' : 'HEAD'), $path, $more));
                $split = mt_rand(0, 5) === 0 ? mt_rand(0, strlen($block)) : strlen($block);
                $c->send(h2_frame(H2_HEADERS, ($end ? H2_END_STREAM : 0) | ($split === strlen($block) ? H2_END_HEADERS : 0),
                    $broken() ? $stream : $next, substr($block, 0, $split)));
                if ($split < strlen($block)) {
                    $c->send(h2_frame(H2_CONTINUATION, H2_END_HEADERS, $broken() ? $stream : $next, substr($block, $split)));
                }
                if (!$end) {
                    $open[$next] = $next;
                }
                $next += 2;
                break;
            case 4:
            case 5:
            case 6:
                $body = match (mt_rand(0, 3)) {
                    0 => random_multipart(some_bytes(mt_rand(0, 30000))),
                    1 => random_multipart(some_bytes(mt_rand(0, 90000)), mt_rand(0, 1) === 1),
                    default => some_bytes(mt_rand(0, $broken() ? 80000 : 20000)),
                };
                $end = mt_rand(0, 2) === 0;
                $chunks = str_split($body, 16384) ?: [''];
                foreach ($chunks as $k => $chunk) {
                    $padded = $broken();
                    $payload = $padded ? chr(mt_rand(0, 255)) . $chunk . str_repeat("\0", mt_rand(0, 20)) : $chunk;
                    $last = $k === count($chunks) - 1;
                    $c->send(h2_frame(H2_DATA, ($end && $last ? H2_END_STREAM : 0) | ($padded ? 0x8 : 0), $stream, $payload));
                }
                if ($end) {
                    unset($open[$stream]);
                }
                break;
            case 7:
                $c->send(h2_frame(H2_RST_STREAM, 0, $stream, pack('N', mt_rand(0, 14)) . ($broken() ? 'x' : '')));
                unset($open[$stream]);
                break;
            case 8:
                $increment = $broken() ? [0, 0x7fffffff][mt_rand(0, 1)] : mt_rand(1, 65535);
                $c->send(h2_frame(H2_WINDOW_UPDATE, 0, mt_rand(0, 1) ? 0 : $stream, pack('N', $increment)));
                break;
            case 9:
                $payload = '';
                for ($k = mt_rand(0, 3); $k > 0; $k--) {
                    $payload .= $broken() ? pack('nN', mt_rand(0, 10), [0, 16777216, 0x80000000, 0xffffffff][mt_rand(0, 3)])
                        : pack('nN', [1, 3, 4, 5, 6, 99][mt_rand(0, 5)], [4096, 100, 65535, 16384, 8192, 7][mt_rand(0, 5)]);
                }
                $c->send(h2_frame(H2_SETTINGS, $broken() ? H2_ACK : 0, $broken() ? $stream : 0, $broken() ? 'odd' : $payload));
                break;
            case 10:
                $c->send(h2_frame(H2_PING, 0, $broken() ? 1 : 0, some_bytes($broken() ? 7 : 8)));
                break;
            case 11:
                /* PRIORITY (on itself when broken), an unknown frame type (to be ignored), GOAWAY, bytes that are no frame. */
                $c->send(match (mt_rand(0, 3)) {
                    0 => h2_frame(2, 0, $stream, pack('N', $broken() ? $stream : 0) . chr(mt_rand(0, 255))),
                    1 => h2_frame(mt_rand(10, 255), mt_rand(0, 255), $stream, some_bytes(mt_rand(0, 20))),
                    2 => h2_frame(H2_GOAWAY, 0, 0, pack('NN', 0, 0)),
                    default => $broken() ? random_bytes(mt_rand(1, 30)) : '',
                });
                break;
            default:
                $c->frame(0.005);
                break;
        }
        while ($c->frame(0.001) !== null) {
        }
    }
    if (mt_rand(0, 1)) {
        $c->frames(null, 0.05);
    }
    $c->close();
}

/**
 * A sound connection whose every answer is checked: up to 8 streams at once
 * (http2_max_concurrent_streams), request bodies sent in pieces of random
 * size interleaved across the streams, header blocks split into
 * CONTINUATION or padded, and a small receive window now and then, so the
 * server's DATA waits for our WINDOW_UPDATEs. Each stream must end with
 * END_STREAM (no reset), its status be the expected one (nghttp2 sends
 * 200 and 500 as the static table's entries 8 and 14: 0x88, 0x8e) and its
 * body the expected bytes. Returns '' when all are right, else what was not.
 */
function sound_connection(int $port): string
{
    $window = [65535, 65535, 1000, 16384][mt_rand(0, 3)];
    $c = new H2TestConn($port, true, [4 => $window]);
    $expected = $bodies = [];
    for ($k = mt_rand(1, 8), $id = 1; $k > 0; $k--, $id += 2) {
        $path = ['/', '/echo', '/echo', '/stream', '/big', '/sleep', '/upload', '/throw'][mt_rand(0, 7)];
        $method = $path === '/echo' || $path === '/upload' ? 'POST' : (mt_rand(0, 4) ? 'GET' : 'HEAD');
        $size = 0;
        $body = match ($path) {
            '/echo' => some_bytes(mt_rand(0, 1) ? mt_rand(0, 100) : mt_rand(0, 65536)),
            '/upload' => random_multipart(some_bytes($size = mt_rand(0, 30000))),
            default => '',
        };
        $answer = random_answer($path, $body, $size);
        $expected[$id] = ['status' => $path === '/throw' ? "\x8e" : "\x88", 'body' => $method === 'HEAD' ? '' : $answer,
            'what' => "$method $path"];
        $more = $path === '/upload' ? [['content-type', RANDOM_MULTIPART_TYPE]] : [];
        $block = h2_header_block(h2_request_fields($method, $path, $more));
        $end = $body === '' ? H2_END_STREAM : 0;
        if (mt_rand(0, 3) === 0) {
            $split = mt_rand(0, strlen($block));
            $c->send(h2_frame(H2_HEADERS, $end, $id, substr($block, 0, $split))
                . h2_frame(H2_CONTINUATION, H2_END_HEADERS, $id, substr($block, $split)));
        } elseif (mt_rand(0, 3) === 0) {
            $pad = mt_rand(0, 40);
            $c->send(h2_frame(H2_HEADERS, $end | H2_END_HEADERS | 0x8, $id, chr($pad) . $block . str_repeat("\0", $pad)));
        } else {
            $c->send(h2_frame(H2_HEADERS, $end | H2_END_HEADERS, $id, $block));
        }
        if ($body !== '') {
            $bodies[$id] = $body;
        }
    }
    /* The bodies in pieces, the streams taking turns at random. */
    while ($bodies) {
        $id = array_rand($bodies);
        $piece = substr($bodies[$id], 0, mt_rand(1, 20000));
        $bodies[$id] = (string) substr($bodies[$id], strlen($piece));
        $last = $bodies[$id] === '';
        if (!$c->data($id, $piece, $last)) {
            return "stream $id ({$expected[$id]['what']}): the server took no more of its body";
        }
        if ($last) {
            unset($bodies[$id]);
        }
    }
    $got = array_fill_keys(array_keys($expected), ['status' => null, 'body' => '', 'end' => false, 'reset' => false]);
    $open = count($expected);
    while ($open > 0 && ($f = $c->frame(5)) !== null) {
        $id = $f['stream'];
        if ($f['type'] === H2_GOAWAY) {
            return 'GOAWAY: ' . h2_describe($f);
        }
        if (!isset($got[$id])) {
            continue;
        }
        if ($f['type'] === H2_HEADERS && $got[$id]['status'] === null) {
            $got[$id]['status'] = $f['payload'][0] ?? '';
        } elseif ($f['type'] === H2_DATA && $f['payload'] !== '') {
            $got[$id]['body'] .= $f['payload'];
            $c->send(h2_frame(H2_WINDOW_UPDATE, 0, 0, pack('N', strlen($f['payload'])))
                . h2_frame(H2_WINDOW_UPDATE, 0, $id, pack('N', strlen($f['payload']))));
        }
        if ($f['type'] === H2_RST_STREAM) {
            $got[$id]['reset'] = true;
        }
        if ($f['type'] === H2_RST_STREAM || (in_array($f['type'], [H2_DATA, H2_HEADERS], true) && $f['flags'] & H2_END_STREAM)) {
            $got[$id]['end'] = true;
            $open--;
        }
    }
    $c->close();
    foreach ($expected as $id => $e) {
        $g = $got[$id];
        if (!$g['end'] || $g['reset'] || $g['status'] !== $e['status']
            || ($e['body'] !== null && $g['body'] !== $e['body'])) {
            return "stream $id ({$e['what']}): " . ($g['end'] ? ($g['reset'] ? 'reset' : 'ended') : 'never ended')
                . ', status byte ' . bin2hex((string) $g['status']) . ', ' . strlen($g['body']) . ' bytes, md5 '
                . md5($g['body']) . " (window $window)";
        }
    }
    return '';
}

/** A well-behaved request on a new connection: the worker is alive and serves. */
function healthy(int $port, string $path = '/'): ?string
{
    $c = new H2TestConn($port);
    $c->request(1, 'GET', $path);
    $body = h2_body($c->stream(1, 5));
    $c->close();
    return $body;
}

/* Longer hunts, or one seed again: RAPIER_H2_RANDOM_SEED and RAPIER_H2_RANDOM_CONNECTIONS (docs/reliability.md). */
$connections = (int) (getenv('RAPIER_H2_RANDOM_CONNECTIONS') ?: (http_test_valgrind() ? 25 : (http_test_asan() ? 100 : 250)));
$seed = (int) (getenv('RAPIER_H2_RANDOM_SEED') ?: 20261125);
$failed = [];
$wrong = [];
for ($n = 0; $n < $connections; $n++) {
    mt_srand($seed + $n);
    if (mt_rand(0, 3) === 0) {
        $why = sound_connection($port);
        if ($why !== '' && count($wrong) < 5) {
            $wrong[] = 'seed ' . ($seed + $n) . ": $why";
        }
    } else {
        hostile_connection($port);
    }
    if ($n % 10 === 9 && healthy($port) !== 'ok') {
        $failed = [$seed + $n - 9, $seed + $n];
        break;
    }
}
echo 'sound connections answered wrongly: ', json_encode($wrong, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
echo 'an unanswered check after the connections of seeds: ', json_encode($failed), "\n";

/* Handlers of reset streams and timed-out requests finish; every hostile connection is closed. */
$stats = null;
$settled = http_test_poll(function () use ($port, &$stats) {
    $stats = json_decode((string) healthy($port, '/stats'), true);
    return $stats !== null && $stats['connections'] === 1 && $stats['handling'] === 1 ? true : null;
}, 10);
echo 'settled (only the asking connection open, only its handler running): ', var_export($settled === true, true), "\n";
clearstatcache();
echo 'files left in upload_tmp_dir: ', count(array_diff(scandir($dir), ['.', '..'])), "\n";
[$rc, $out] = h2_curl($port, '/echo', ['-s', '--data-binary', 'hello']);
echo "curl --http2-prior-knowledge: $rc $out\n";
[$rc, $out] = http_curl(['-s', "http://127.0.0.1:$port/"]);
echo "HTTP/1.1: $rc $out\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n";
echo 'stdout: ', json_encode($r['out']), "\n";
/* Its log holds the traces of /throw's exceptions, and nothing else: no warning, no error of the server's. */
echo 'server log besides the handler exceptions: ', json_encode(random_server_log($r['err'])), "\n";
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
sound connections answered wrongly: []
an unanswered check after the connections of seeds: []
settled (only the asking connection open, only its handler running): true
files left in upload_tmp_dir: 0
curl --http2-prior-knowledge: 0 5 5d41402abc4b2a76b9719d911017c592
HTTP/1.1: 0 ok
exit: 0
stdout: "ready\nstart() returned\n"
server log besides the handler exceptions: ""
