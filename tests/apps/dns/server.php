<?php

/*
 * A DNS server for tests/DnsResolutionTest.php, run on 127.0.0.1:53 inside
 * a network namespace of its own. It answers every question about
 * *.rapier.test, and how depends on the first label:
 *
 *   slow<ms>-...   127.0.0.1 (no AAAA record), after <ms> milliseconds
 *   held<n>-...    127.0.0.1 (no AAAA record), once n held<n>- names wait
 *                  together and a "release" datagram (not a question) has
 *                  come; after that first batch, at once
 *   never-...      no answer at all
 *   nx-...         NXDOMAIN, at once
 *   peak           127.0.0.<the most names that waited at once since the
 *                  last peak question>, at once
 *   anything else  127.0.0.1, at once
 *
 * Each question is answered on its own schedule, so slow answers overlap,
 * as a real resolver's would. Prints "ready" once it listens.
 */

declare(strict_types=1);

const TYPE_A = 1;
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
            $due[] = [0.0, $peer, answer($query, $question, "127.0.0.$peak"), $name];
            $peak = 0;
        } elseif ($n > 0 && !isset($open[$n])) {
            $held[$n][] = [0.0, $peer, answer($query, $question, '127.0.0.1'), $name];
        } else {
            $ipv4 = str_starts_with($first, 'nx-') ? null : '127.0.0.1';
            $due[] = [microtime(true) + $delay, $peer, answer($query, $question, $ipv4), $name];
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
 * @return array{string, int, string, int}|null the first label of the name asked about, the type asked for,
 *     the name, and where the question ends
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

    return [$labels[0] ?? '', unpack('n', $query, $at + 1)[1], implode('.', $labels), $at + 5];
}

/**
 * The reply to $query, whose question() is $question: $ipv4 for an A
 * question, no record for another; NXDOMAIN for a null $ipv4.
 */
function answer(string $query, array $question, ?string $ipv4): string
{
    [, $type, , $end] = $question;
    $rcode = $ipv4 === null ? RCODE_NXDOMAIN : 0;
    $records = $ipv4 !== null && $type === TYPE_A
        ? pack('nnnNn', 0xC00C, TYPE_A, 1, 0, 4) . inet_pton($ipv4)
        : '';
    $recursionDesired = ord($query[2]) & 0x01;
    $header = substr($query, 0, 2)
        . pack('nnnnn', 0x8480 | ($recursionDesired << 8) | $rcode, 1, $records === '' ? 0 : 1, 0, 0);

    return $header . substr($query, 12, $end - 12) . $records;
}
