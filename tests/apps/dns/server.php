<?php

/*
 * A DNS server for tests/DnsResolutionTest.php, run on 127.0.0.1:53 inside
 * a network namespace of its own. It answers every question about
 * *.rapier.test, and when depends on the first label:
 *
 *   slow<ms>-...   after <ms> milliseconds
 *   held<n>-...    once n held<n>- names wait together and a "release"
 *                  datagram (not a question) has come; after that first
 *                  batch, at once
 *   never-...      never
 *   nx-...         at once, NXDOMAIN
 *   peak           at once, 127.0.0.<the most names that waited at once
 *                  since the last peak question>
 *   anything else  at once
 *
 * What it answers depends on the type asked for: A 127.0.0.1 (127.0.0.1,
 * .2 and .3 for multi-... names), MX "10 mail.<name>", TXT "rapier
 * <name>", no record of any other type (so no AAAA). Reverse questions
 * (PTR) about a.b.c.d are answered "host-a-b-c-d.rapier.test", held like
 * held<n>- names for 198.18.<n>.x, never for 192.0.2.x, and NXDOMAIN for
 * 203.0.113.x.
 *
 * Each question is answered on its own schedule, so slow answers overlap,
 * as a real resolver's would. Prints "ready" once it listens.
 */

declare(strict_types=1);

const TYPE_A = 1;
const TYPE_PTR = 12;
const TYPE_MX = 15;
const TYPE_TXT = 16;
const RCODE_NXDOMAIN = 3;

$socket = stream_socket_server('udp://127.0.0.1:53', $errno, $errstr, STREAM_SERVER_BIND);
if ($socket === false) {
    fwrite(STDERR, "dns server: $errstr\n");
    exit(1);
}
echo "ready\n";

/** @var list<array{float, string, string, string}> $due when, to whom, what, for which name */
$due = [];
/** @var array<int, list<array{float, string, string, string}>> $held by n, as in $due */
$held = [];
/** @var array<int, true> $open the n whose first batch went out */
$open = [];
$released = false;
$peak = 0;
for (;;) {
    $now = microtime(true);
    usort($due, static fn (array $a, array $b): int => $a[0] <=> $b[0]);
    while ($due !== [] && $due[0][0] <= $now) {
        [, $peer, $reply] = array_shift($due);
        stream_socket_sendto($socket, $reply, 0, $peer);
    }
    $wait = $due === [] ? 1.0 : max(0.0, $due[0][0] - $now);
    $read = [$socket];
    $none = null;
    if (stream_select($read, $none, $none, (int) $wait, (int) (fmod($wait, 1.0) * 1e6)) !== 1) {
        continue;
    }
    $query = (string) stream_socket_recvfrom($socket, 512, 0, $peer);
    $released = $released || $query === 'release';
    $question = question($query);
    if ($question !== null) {
        [$first, $type, $name] = $question;
        $n = preg_match('/^held(\d+)-/', $first, $m) === 1 ? (int) $m[1] : 0;
        $delay = preg_match('/^slow(\d+)-/', $first, $m) === 1 ? (int) $m[1] / 1000 : 0.0;
        if (str_starts_with($first, 'never-')) {
            // No answer.
        } elseif ($first === 'peak' && $type === TYPE_A) {
            $due[] = [0.0, $peer, answer($query, $question, [[TYPE_A, inet_pton("127.0.0.$peak")]]), $name];
            $peak = 0;
        } elseif ($n > 0 && !isset($open[$n])) {
            $held[$n][] = [0.0, $peer, answer($query, $question, records($type, $name, $first)), $name];
        } else {
            $records = str_starts_with($first, 'nx-') ? null : records($type, $name, $first);
            $due[] = [microtime(true) + $delay, $peer, answer($query, $question, $records), $name];
        }
        $peak = max($peak, waiting($due, $held));
    }
    // A held batch goes out once n of its names wait and the client released it.
    foreach ($held as $n => $batch) {
        if ($released && count(array_unique(array_column($batch, 3))) >= $n) {
            array_push($due, ...$batch);
            unset($held[$n]);
            $open[$n] = true;
            $released = false;
        }
    }
}

/** How many names wait for an answer. */
function waiting(array $due, array $held): int
{
    return count(array_unique(array_column(array_merge($due, ...array_values($held)), 3)));
}

/**
 * The question of $query: labels up to the root, then type and class.
 *
 * @return array{string, int, string, int}|null the label that says when to answer (the first; for a reverse
 *     name, one that stands for its address), the type asked for, the name, and where the question ends
 */
function question(string $query): ?array
{
    if (strlen($query) < 17) {
        return null;
    }
    $labels = [];
    $at = 12;
    while (($len = ord($query[$at] ?? "\0")) !== 0 && $at + $len < strlen($query)) {
        $labels[] = strtolower(substr($query, $at + 1, $len));
        $at += $len + 1;
    }
    $name = implode('.', $labels);
    $address = reverse_address($name);
    $first = match (true) {
        $address === null => $labels[0] ?? '',
        str_starts_with($address, '198.18.') => 'held' . explode('.', $address)[2] . '-',
        str_starts_with($address, '192.0.2.') => 'never-',
        str_starts_with($address, '203.0.113.') => 'nx-',
        default => '',
    };

    return [$first, unpack('n', $query, $at + 1)[1], $name, $at + 5];
}

/** The IPv4 address a reverse name (d.c.b.a.in-addr.arpa) stands for, or null. */
function reverse_address(string $name): ?string
{
    if (preg_match('/^(\d+)\.(\d+)\.(\d+)\.(\d+)\.in-addr\.arpa$/', $name, $m) !== 1) {
        return null;
    }

    return "$m[4].$m[3].$m[2].$m[1]";
}

/**
 * The records answering a question of $type about $name (see the top).
 *
 * @return list<array{int, string}> type and data of each
 */
function records(int $type, string $name, string $first): array
{
    $address = reverse_address($name);

    return match (true) {
        $type === TYPE_A && str_starts_with($first, 'multi-') => array_map(
            static fn (int $i): array => [TYPE_A, inet_pton("127.0.0.$i")],
            [1, 2, 3],
        ),
        $type === TYPE_A => [[TYPE_A, inet_pton('127.0.0.1')]],
        $type === TYPE_MX => [[TYPE_MX, pack('n', 10) . encode_name("mail.$name")]],
        $type === TYPE_TXT => [[TYPE_TXT, chr(strlen("rapier $name")) . "rapier $name"]],
        $type === TYPE_PTR && $address !== null => [[TYPE_PTR,
            encode_name('host-' . str_replace('.', '-', $address) . '.rapier.test')]],
        default => [],
    };
}

/** $name in a DNS message's form: each label after its length, then the root. */
function encode_name(string $name): string
{
    return implode('', array_map(static fn (string $l): string => chr(strlen($l)) . $l, explode('.', $name))) . "\0";
}

/**
 * The reply to $query, whose question() is $question: $records, each
 * about the name asked (a pointer to it), or NXDOMAIN for null.
 *
 * @param list<array{int, string}>|null $records
 */
function answer(string $query, array $question, ?array $records): string
{
    [, , , $end] = $question;
    $rcode = $records === null ? RCODE_NXDOMAIN : 0;
    $body = '';
    foreach ($records ?? [] as [$type, $data]) {
        $body .= pack('nnnNn', 0xC00C, $type, 1, 0, strlen($data)) . $data;
    }
    $recursionDesired = ord($query[2]) & 0x01;
    $header = substr($query, 0, 2)
        . pack('nnnnn', 0x8480 | ($recursionDesired << 8) | $rcode, 1, count($records ?? []), 0, 0);

    return $header . substr($query, 12, $end - 12) . $body;
}
