--TEST--
Hostile: HTTP/1.1 connections, plain and over TLS, sending seeded random mixes of requests (pipelined, split anywhere, chunked or not, Expect: 100-continue, uploads, gzip, HTTP/1.0, Connection: close), of requests broken in every place (bytes flipped, inserted or cut, conflicting lengths, headers over the limits, bad chunks, bodies past max_body_size, HTTP/2's preface cut short), and of WebSocket upgrades followed by sound and malformed frames, compressed or not, while clients stop reading, shut down their side or vanish: every answer on a sound connection is right and in order, the worker never dies, no temporary file or connection is left behind and the server stops cleanly
--EXTENSIONS--
rapier
zlib
--FILE--
<?php
require __DIR__ . '/../http/websocket.inc';
require __DIR__ . '/../http/tls.inc';
require __DIR__ . '/random.inc';

$dir = sys_get_temp_dir() . '/rapier-h1-random-' . getmypid();
mkdir($dir);
/* HTTPS on the server's port, plain HTTP to the application on $port (http_port without the redirect). */
$port = http_test_free_port();
$srv = http_server_start(RANDOM_HANDLER, tls_test_options([
    'http_port' => $port,
    'https_redirect' => false,
    'http2' => true,
    'concurrency' => 4,
    'max_body_size' => 65536,
    'max_header_size' => 4096,
    'max_header_count' => 40,
    'read_timeout' => http_test_timeout(1),
    'write_timeout' => http_test_timeout(1),
    'websocket_compression' => true,
    'websocket_max_message_size' => 100000,
    'websocket_close_timeout' => http_test_timeout(0.5),
]), '', '', ['upload_tmp_dir' => $dir]);
$tlsPort = $srv->port;

/* Bytes from mt_rand(), so that a seed replays a connection exactly (random_bytes() would not). */
function seeded_bytes(int $length): string
{
    $words = [];
    for ($i = intdiv($length + 3, 4); $i > 0; $i--) {
        $words[] = mt_rand(0, 0xffffffff);
    }
    return substr(pack('N*', ...$words), 0, $length);
}

function seeded_text(int $length): string
{
    return substr(str_repeat(substr(base64_encode(seeded_bytes(48)), 0, 64), intdiv($length, 64) + 1), 0, $length);
}

function pick(array $from): mixed
{
    return $from[array_rand($from)];
}

/** A raw client that never blocks for long: writes in random pieces, reads only when told to. */
final class FuzzConn
{
    /** @var resource|null */
    private $sock;
    public string $in = '';
    public bool $closed = false;

    /** $port: a TLS port when $tls (the handshake done here, blocking), plain otherwise. */
    public function __construct(int $port, public bool $keep = true, bool $tls = false)
    {
        $context = stream_context_create(['ssl' => ['cafile' => tls_test_files()['cert'], 'peer_name' => 'localhost']]);
        $this->sock = stream_socket_client(($tls ? 'tls' : 'tcp') . "://127.0.0.1:$port", $errno, $errstr,
            http_test_timeout(3), STREAM_CLIENT_CONNECT, $context);
        if ($this->sock === false) {
            throw new RuntimeException("connect: $errstr");
        }
        /* Unbuffered: each fread() is one SSL_read() of a whole record, so nothing waits in a buffer select() cannot see. */
        stream_set_read_buffer($this->sock, 0);
        stream_set_blocking($this->sock, false);
    }

    /** Sends $bytes, split at random with short pauses; false once the server has closed or stopped reading for a while. */
    public function write(string $bytes): bool
    {
        $deadline = microtime(true) + http_test_timeout(0.5);
        for ($off = 0; $off < strlen($bytes) && !$this->closed;) {
            $piece = mt_rand(0, 3) ? strlen($bytes) - $off : mt_rand(1, 64);
            $n = @fwrite($this->sock, substr($bytes, $off, $piece));
            if ($n === false) {
                $this->closed = true;
                break;
            }
            $off += $n;
            if ($n === 0) {
                if (microtime(true) > $deadline) {
                    return false;
                }
                $this->read(0.002);
            } elseif ($piece < 64 && mt_rand(0, 3) === 0) {
                usleep(mt_rand(0, 2000));
            }
        }
        return !$this->closed;
    }

    /** Reads what comes within $timeout; kept only by a connection whose answers are checked. */
    public function read(float $timeout): void
    {
        $deadline = microtime(true) + $timeout;
        while (!$this->closed) {
            $r = [$this->sock];
            $w = $e = null;
            $left = max(0, $deadline - microtime(true));
            if (@stream_select($r, $w, $e, 0, (int) ($left * 1e6)) < 1) {
                return;
            }
            $chunk = @fread($this->sock, 65536);
            if ($chunk === false || ($chunk === '' && feof($this->sock))) {
                $this->closed = true;
                return;
            }
            if ($this->keep) {
                $this->in .= $chunk;
            }
        }
    }

    /** Reads until the server closes or nothing has come for $quiet seconds. */
    public function readQuiet(float $quiet): void
    {
        do {
            $before = strlen($this->in);
            $this->read(http_test_timeout($quiet));
        } while (!$this->closed && strlen($this->in) > $before);
    }

    public function shutdownWrite(): void
    {
        if (!$this->closed) {
            @stream_socket_shutdown($this->sock, STREAM_SHUT_WR);
        }
    }

    public function close(): void
    {
        if ($this->sock !== null) {
            fclose($this->sock);
            $this->sock = null;
        }
        $this->closed = true;
    }
}

function chunked(string $body): string
{
    $out = '';
    while ($body !== '') {
        $size = mt_rand(1, mt_rand(0, 1) ? 20 : 20000);
        $out .= dechex(min($size, strlen($body))) . (mt_rand(0, 5) ? '' : ';ext=1') . "\r\n" . substr($body, 0, $size) . "\r\n";
        $body = (string) substr($body, $size);
    }
    return $out . '0' . (mt_rand(0, 3) ? "\r\n" : "\r\nX-Trailer: t\r\n") . "\r\n";
}

/**
 * A well-formed request and the answer it must get: ['status', 'body' (null: any), 'head' (a HEAD),
 * 'what', 'closes' (the server must close after it)]. $last: it may end the connection
 * (Connection: close, HTTP/1.0).
 */
function sound_request(bool $last): array
{
    $path = pick(['/', '/nowhere?x=1', '/echo', '/echo', '/stream', '/big', '/sleep', '/upload', '/throw']);
    $method = match ($path) {
        '/echo', '/upload' => 'POST',
        default => mt_rand(0, 4) ? 'GET' : 'HEAD',
    };
    $version = $last && $method === 'GET' && mt_rand(0, 3) === 0 ? '1.0' : '1.1';
    $headers = ['Host' => 'fuzz'];
    $body = '';
    $size = 0;
    if ($path === '/echo') {
        $body = seeded_bytes(mt_rand(0, 1) ? mt_rand(0, 100) : mt_rand(0, 65536));
    } elseif ($path === '/upload') {
        $body = random_multipart(seeded_bytes($size = mt_rand(0, 40000)));
        $headers['Content-Type'] = RANDOM_MULTIPART_TYPE;
    }
    $answer = random_answer($path, $body, $size);
    if (mt_rand(0, 1)) {
        $headers['Accept-Encoding'] = 'gzip';
    }
    if ($method === 'POST') {
        if ($version === '1.1' && mt_rand(0, 2) === 0) {
            $headers['Transfer-Encoding'] = 'chunked';
            $body = chunked($body);
        } else {
            $headers['Content-Length'] = (string) strlen($body);
        }
        if ($version === '1.1' && mt_rand(0, 3) === 0) {
            $headers['Expect'] = '100-continue';
        }
    }
    if ($last && $version === '1.1' && mt_rand(0, 2) === 0) {
        $headers['Connection'] = 'close';
    }
    $raw = "$method $path HTTP/$version\r\n";
    foreach ($headers as $name => $value) {
        $raw .= "$name: $value\r\n";
    }
    return ['raw' => "$raw\r\n$body", 'status' => $path === '/throw' ? 500 : 200, 'body' => $method === 'HEAD' ? '' : $answer,
        'head' => $method === 'HEAD', 'what' => "$method $path HTTP/$version",
        'closes' => $version === '1.0' || isset($headers['Connection'])];
}

/** A request broken in one of many ways (or sound bytes cut short): the server answers 4xx, waits, or closes. */
function broken_request(): string
{
    $raw = sound_request(false)['raw'];
    switch (mt_rand(0, 14)) {
        case 0:
            $at = mt_rand(0, strlen($raw) - 1);
            return substr_replace($raw, chr(mt_rand(0, 255)), $at, 1);
        case 1:
            return substr_replace($raw, pick(["\0", "\r", "\n", ' ', ':', "\x7f", "\xff", "\t", "\r\n", "\r\n "]), mt_rand(0, strlen($raw)), 0);
        case 2:
            return substr($raw, 0, mt_rand(0, strlen($raw)));
        case 3:
            return str_replace("\r\n\r\n", "\r\nContent-Length: " . mt_rand(0, 9) . "\r\nContent-Length: 1" . mt_rand(0, 9) . "\r\n\r\n", $raw);
        case 4:
            return "POST /echo HTTP/1.1\r\nHost: f\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
        case 5:
            return "GET / HTTP/1.1\r\nHost: f\r\nX-Big: " . str_repeat('h', mt_rand(3000, 9000)) . "\r\n\r\n";
        case 6:
            return "GET / HTTP/1.1\r\n" . str_repeat("X-N: n\r\n", mt_rand(35, 60)) . "\r\n";
        case 7:
            return "POST /echo HTTP/1.1\r\nHost: f\r\nTransfer-Encoding: chunked\r\n\r\n"
                . pick(['zz', 'ffffffffffffffffff', '-1', '5 ;', "5\r\nhelloXX", '1;' . str_repeat('e', 5000), ''])
                . "\r\n" . seeded_text(mt_rand(0, 20));
        case 8:
            $size = mt_rand(65537, 150000);
            return "POST /" . pick(['echo', 'upload']) . " HTTP/1.1\r\nHost: f\r\n"
                . (mt_rand(0, 1) ? "Content-Length: $size\r\n\r\n" . seeded_bytes($size)
                    : "Transfer-Encoding: chunked\r\n\r\n" . chunked(seeded_bytes($size)));
        case 9:
            return pick(['GET', 'G ET', 'get', 'BREW', 'CONNECT', 'OPTIONS', 'PRI', str_repeat('M', 300)]) . ' '
                . pick(['/', '*', 'http://fuzz/x', 'fuzz:443', '/' . str_repeat('p', 5000), "/a\x01b", '/%00', '//..//..']) . ' '
                . pick(['HTTP/1.1', 'HTTP/1.0', 'HTTP/1.2', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.', 'http/1.1', '']) . "\r\nHost: f\r\n\r\n";
        case 10:
            return "GET / HTTP/1.1\r\nHost: f\r\nX-Fold: a\r\n b\r\n\r\n";
        case 11:
            return str_replace("\r\n", "\n", $raw);
        case 12:
            /* A length longer than what follows: the next request is read as this one's body. */
            return "POST /echo HTTP/1.1\r\nHost: f\r\nContent-Length: " . mt_rand(1, 3000) . "\r\n\r\n" . seeded_text(mt_rand(0, 100));
        case 13:
            /* HTTP/2's preface (http2 is on), cut short or whole, then anything: first on a connection it turns HTTP/2. */
            $preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
            return substr($preface, 0, mt_rand(1, strlen($preface))) . seeded_bytes(mt_rand(0, 60));
        default:
            return seeded_bytes(mt_rand(1, 200));
    }
}

/** The upgrade request; the offer of permessage-deflate when $deflate. */
function upgrade_request(bool $deflate): string
{
    return "GET /ws HTTP/1.1\r\nHost: fuzz\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        . 'Sec-WebSocket-Key: ' . base64_encode(seeded_bytes(16)) . "\r\nSec-WebSocket-Version: 13\r\n"
        . ($deflate ? "Sec-WebSocket-Extensions: permessage-deflate\r\n" : '') . "\r\n";
}

/* A frame masked with a seeded key (see WsTestClient::frame()). */
function ws_frame(int $opcode, string $payload, bool $fin = true, bool $mask = true, int $rsv = 0, ?int $length = null): string
{
    return WsTestClient::frame($opcode, $payload, $fin, $mask, $rsv, $length, seeded_bytes(4));
}

/**
 * A sound message as frames (fragmented at random, compressed when $deflate
 * and the coin says so, a ping between fragments now and then), and the
 * frames the server owes for it: [opcode, payload] pairs.
 */
function ws_message(bool $deflate, array &$owed): string
{
    $binary = mt_rand(0, 1) === 1;
    $data = $binary ? seeded_bytes(mt_rand(0, 1) ? mt_rand(0, 200) : mt_rand(0, 70000)) : seeded_text(mt_rand(0, 3000));
    $compressed = $deflate && mt_rand(0, 1);
    $wire = $compressed ? WsTestClient::deflate($data) : $data;
    $pieces = mt_rand(0, 2) ? [$wire] : (str_split($wire, mt_rand(1, max(1, strlen($wire)))) ?: ['']);
    $out = '';
    foreach ($pieces as $k => $piece) {
        $first = $k === 0;
        $last = $k === count($pieces) - 1;
        $out .= ws_frame($first ? ($binary ? WS_BINARY : WS_TEXT) : WS_CONTINUATION, $piece, $last, true,
            $first && $compressed ? 0x40 : 0);
        if (!$last && mt_rand(0, 5) === 0) {
            $ping = seeded_text(mt_rand(0, 125));
            $out .= ws_frame(WS_PING, $ping);
            $owed[] = [WS_PONG, $ping];
        }
    }
    $owed[] = [$binary ? WS_BINARY : WS_TEXT, $data];
    return $out;
}

/** A frame that breaks RFC 6455 (or 7692), or a message that asks the handler to throw or to close. */
function ws_broken(bool $deflate): string
{
    return match (mt_rand(0, 11)) {
        0 => ws_frame(WS_TEXT, 'unmasked', true, false),
        1 => ws_frame(WS_TEXT, 'rsv', true, true, pick([0x10, 0x20, 0x70, $deflate ? 0 : 0x40])),
        2 => ws_frame(pick([3, 4, 5, 6, 7, 11, 12, 13, 14, 15]), seeded_bytes(mt_rand(0, 10))),
        3 => ws_frame(WS_PING, seeded_text(mt_rand(126, 300))),
        4 => ws_frame(WS_PING, 'frag', false),
        5 => ws_frame(WS_CONTINUATION, 'nothing to continue'),
        6 => ws_frame(WS_TEXT, "bad \xff\xfe utf-8"),
        7 => ws_frame(WS_BINARY, 'x', true, true, 0, pick([100001, 1 << 31, PHP_INT_MAX])),
        8 => ws_frame(WS_CLOSE, pick(['', 'x', pack('n', 1005), pack('n', 999), pack('n', 1000) . "\xff", pack('n', 5000)])),
        9 => ws_frame(WS_BINARY, $deflate ? seeded_bytes(mt_rand(1, 50)) : 'garbage', true, true, 0x40),
        10 => ws_frame(WS_TEXT, pick(['throw', 'bye'])),
        default => seeded_bytes(mt_rand(1, 40)),
    };
}

/** The server's frames in $in, a compressed message inflated: [opcode, payload] pairs; the rest left in $in. */
function ws_frames_in(string &$in): array
{
    $frames = [];
    $message = null;
    while (($f = WsTestClient::parse($in)) !== null) {
        if ($f['opcode'] >= 8) {
            $frames[] = [$f['opcode'], $f['payload']];
            continue;
        }
        $message = $f['opcode'] === WS_CONTINUATION && $message !== null
            ? [$message[0] . $f['payload'], $message[1], $message[2]]
            : [$f['payload'], $f['opcode'], (bool) ($f['rsv'] & 0x40)];
        if ($f['fin']) {
            $frames[] = [$message[1], $message[2] ? WsTestClient::inflate($message[0]) : $message[0]];
            $message = null;
        }
    }
    return $frames;
}

/** The body of a response whose head was just taken off $in (chunked, by length or to the end), gzip decoded. */
function take_body(string &$in, array $headers): string
{
    $body = '';
    if (($headers['transfer-encoding'][0] ?? '') === 'chunked') {
        while (preg_match('/^([0-9a-f]+)\r\n/i', $in, $m) && ($size = hexdec($m[1])) > 0) {
            $body .= substr($in, strlen($m[0]), $size);
            $in = substr($in, strlen($m[0]) + $size + 2);
        }
        $in = substr($in, 5);      /* the last chunk: "0\r\n\r\n" */
    } elseif (isset($headers['content-length'])) {
        $body = substr($in, 0, (int) $headers['content-length'][0]);
        $in = substr($in, (int) $headers['content-length'][0]);
    } else {
        [$body, $in] = [$in, ''];
    }
    return ($headers['content-encoding'][0] ?? '') === 'gzip' ? (string) @gzdecode($body) : $body;
}

/** Checks the answers a sound connection got, in order; '' when all are right, else what was wrong. */
function check_answers(string $in, array $expected, array $owed): string
{
    foreach ($expected as $i => $e) {
        do {
            $end = strpos($in, "\r\n\r\n");
            if ($end === false) {
                return "answer $i ({$e['what']}): missing, " . strlen($in) . ' bytes left';
            }
            $head = http_parse_head(substr($in, 0, $end));
            $in = substr($in, $end + 4);
        } while ($head['status'] === 100);
        if ($head['status'] !== $e['status']) {
            return "answer $i ({$e['what']}): status {$head['status']}, not {$e['status']}";
        }
        if ($e['status'] === 101) {
            break;
        }
        $body = $e['head'] ? '' : take_body($in, $head['headers']);
        if ($e['body'] !== null && $body !== $e['body']) {
            return "answer $i ({$e['what']}): body of " . strlen($body) . ' bytes, md5 ' . md5($body) . ', not the '
                . strlen($e['body']) . ' expected';
        }
    }
    $frames = ws_frames_in($in);
    foreach ($owed as $i => [$opcode, $payload]) {
        $got = $frames[$i] ?? null;
        if ($got === null || $got[0] !== $opcode || ($opcode !== WS_CLOSE && $got[1] !== $payload)
            || ($opcode === WS_CLOSE && strncmp($got[1], $payload, 2) !== 0)) {
            return "frame $i: opcode " . ($got[0] ?? 'none') . ' with ' . strlen($got[1] ?? '') . " bytes, not $opcode with "
                . strlen($payload);
        }
    }
    return count($frames) > count($owed) || $in !== '' ? 'more than was asked for: ' . json_encode(substr($in, 0, 100)) : '';
}

/**
 * A sound connection: pipelined requests in random pieces, maybe ending in
 * a WebSocket that exchanges messages and closes; every answer is checked.
 */
function sound_connection(int $port, bool $tls): string
{
    $c = new FuzzConn($port, true, $tls);
    $expected = [];
    $owed = [];
    $requests = mt_rand(1, 8);
    $websocket = mt_rand(0, 3) === 0;
    for ($i = 0; $i < $requests; $i++) {
        $r = sound_request($i === $requests - 1 && !$websocket);
        $expected[] = $r;
        $c->write($r['raw']);
        if (mt_rand(0, 2) === 0) {
            $c->read(0.002);
        }
    }
    if ($websocket) {
        $deflate = mt_rand(0, 1) === 1;
        $expected[] = ['status' => 101, 'what' => 'upgrade'];
        $c->write(upgrade_request($deflate));
        for ($i = mt_rand(0, 6); $i > 0; $i--) {
            $c->write(ws_message($deflate, $owed));
        }
        $c->write(ws_frame(WS_CLOSE, pack('n', 1000) . 'done'));
        $owed[] = [WS_CLOSE, pack('n', 1000)];
    }
    /* Until every answer is in, the server closes, or long after the last byte came. */
    $why = check_answers($c->in, $expected, $owed);
    $quiet = microtime(true) + http_test_timeout(2);
    while ($why !== '' && !$c->closed && microtime(true) < $quiet) {
        $before = strlen($c->in);
        $c->read(0.01);
        if (strlen($c->in) > $before || $c->closed) {
            $quiet = microtime(true) + http_test_timeout(2);
            $why = check_answers($c->in, $expected, $owed);
        }
    }
    if ($why === '' && ($expected[count($expected) - 1]['closes'] ?? false)) {
        $c->read(http_test_timeout(2));
        $why = $c->closed ? '' : 'still open after a request that ends the connection';
    }
    $c->close();
    return $why;
}

/**
 * A hostile connection: sound and broken requests and WebSocket frames
 * mixed with the connection's own odds, pauses, reads or none (the server
 * then meets a full socket), a shut-down sending side, a vanishing client.
 * One in four is left open for a while (returned), so that its handlers,
 * queued requests, WebSocket and timeouts overlap the connections after it.
 */
function hostile_connection(int $port, bool $tls): ?FuzzConn
{
    $odds = pick([20, 5, 2]);
    $broken = fn () => mt_rand(1, $odds) === 1;
    $c = new FuzzConn($port, false, $tls);
    $reads = mt_rand(0, 3) > 0;
    $upgraded = false;
    $deflate = false;
    for ($steps = mt_rand(1, 15); $steps > 0 && !$c->closed; $steps--) {
        $action = mt_rand(0, 9);
        if ($upgraded) {
            $ignored = [];
            $ok = $c->write($broken() ? ws_broken($deflate) : ($action < 8 ? ws_message($deflate, $ignored)
                : ws_frame(pick([WS_PING, WS_PONG]), seeded_text(mt_rand(0, 125)))));
        } elseif ($action < 5) {
            $ok = $c->write($broken() ? broken_request() : sound_request(false)['raw']);
        } elseif ($action < 7) {
            $deflate = mt_rand(0, 1) === 1;
            $raw = upgrade_request($deflate);
            $ok = $c->write($broken() ? substr_replace($raw, pick(['', 'x', "\r\n"]), mt_rand(0, strlen($raw)), mt_rand(0, 5)) : $raw);
            $upgraded = true;
        } elseif ($action === 7) {
            usleep(mt_rand(0, 20000));
            $ok = true;
        } elseif ($action === 8 && mt_rand(0, 2) === 0) {
            $c->shutdownWrite();
            break;
        } else {
            $ok = true;
        }
        if (!$ok) {
            break;
        }
        if ($reads) {
            $c->read(0.001);
        }
    }
    if ($reads && mt_rand(0, 1)) {
        $c->readQuiet(0.05);
    }
    if (mt_rand(0, 3) === 0) {
        return $c;
    }
    $c->close();
    return null;
}

/** A well-behaved request on a new connection: the worker is alive and serves. */
function healthy(int $port, string $path = '/'): ?string
{
    return http_get($port, $path)['body'] ?? null;
}

/* Longer hunts, or one seed again: RAPIER_H1_RANDOM_SEED and RAPIER_H1_RANDOM_CONNECTIONS (docs/reliability.md). */
$connections = (int) (getenv('RAPIER_H1_RANDOM_CONNECTIONS') ?: (http_test_valgrind() ? 25 : (http_test_asan() ? 100 : 250)));
$seed = (int) (getenv('RAPIER_H1_RANDOM_SEED') ?: 20261125);
$wrong = [];
$unanswered = [];
$parked = [];
for ($n = 0; $n < $connections; $n++) {
    mt_srand($seed + $n);
    $tls = mt_rand(0, 3) === 0;
    if (mt_rand(0, 2) === 0) {
        $why = sound_connection($tls ? $tlsPort : $port, $tls);
        if ($why !== '' && count($wrong) < 5) {
            $wrong[] = 'seed ' . ($seed + $n) . ($tls ? ' (TLS)' : '') . ": $why";
        }
    } elseif (($open = hostile_connection($tls ? $tlsPort : $port, $tls)) !== null) {
        $parked[] = $open;
        if (count($parked) > 6) {
            array_shift($parked)->close();
        }
    }
    if ($n % 10 === 9 && healthy($port) !== 'ok') {
        $unanswered = [$seed + $n - 9, $seed + $n];
        break;
    }
}
foreach ($parked as $open) {
    $open->close();
}
echo 'sound connections answered wrongly: ', json_encode($wrong, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
echo 'an unanswered check after the connections of seeds: ', json_encode($unanswered), "\n";

/* Handlers of abandoned requests finish; every hostile connection and WebSocket is closed. */
$stats = null;
$settled = http_test_poll(function () use ($port, &$stats) {
    $stats = json_decode((string) healthy($port, '/stats'), true);
    return $stats !== null && $stats['connections'] === 1 && $stats['handling'] === 1 && $stats['websockets'] === 0 ? true : null;
}, 10);
echo 'settled (only the asking connection open, only its handler running): ', var_export($settled === true, true),
    $settled === true ? '' : ' ' . json_encode($stats), "\n";
clearstatcache();
echo 'files left in upload_tmp_dir: ', count(array_diff(scandir($dir), ['.', '..'])), "\n";
[$rc, $out] = http_curl(['-s', '--data-binary', 'hello', "http://127.0.0.1:$port/echo"]);
echo "curl: $rc $out\n";
[$rc, $out] = tls_curl($tlsPort, '/echo', ['-s', '--data-binary', 'hello']);
echo "curl over HTTPS: $rc $out\n";
$r = $srv->stop();
echo "exit: {$r['code']}\n";
echo 'stdout: ', json_encode($r['out']), "\n";
/* Its log holds the traces of the handlers' exceptions, and nothing else: no warning, no error of the server's. */
echo 'server log besides the handler exceptions: ', json_encode(random_server_log($r['err'])), "\n";
array_map('unlink', glob("$dir/*"));
rmdir($dir);
?>
--EXPECT--
sound connections answered wrongly: []
an unanswered check after the connections of seeds: []
settled (only the asking connection open, only its handler running): true
files left in upload_tmp_dir: 0
curl: 0 5 5d41402abc4b2a76b9719d911017c592
curl over HTTPS: 0 5 5d41402abc4b2a76b9719d911017c592
exit: 0
stdout: "ready\nstart() returned\n"
server log besides the handler exceptions: ""
