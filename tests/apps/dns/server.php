<?php

/*
 * A DNS server for tests/DnsResolutionTest.php, run on 127.0.0.1:53 inside
 * a network namespace of its own. It answers every question about
 * *.rapier.test, and how depends on the first label:
 *
 *   slow<ms>-...   127.0.0.1 (no AAAA record), after <ms> milliseconds
 *   never-...      no answer at all
 *   nx-...         NXDOMAIN, at once
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

/** @var list<array{float, string, string}> $due when, to whom, what */
$due = [];
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
    $query = stream_socket_recvfrom($socket, 512, 0, $peer);
    $answer = answer((string) $query);
    if ($answer !== null) {
        $due[] = [microtime(true) + $answer[0], $peer, $answer[1]];
    }
}

/** @return array{float, string}|null the delay in seconds and the reply, or null for none */
function answer(string $query): ?array
{
    if (strlen($query) < 17) {
        return null;
    }
    // The question: labels up to the root, then type and class.
    $labels = [];
    $at = 12;
    while (($len = ord($query[$at] ?? "\0")) !== 0 && $at + $len < strlen($query)) {
        $labels[] = strtolower(substr($query, $at + 1, $len));
        $at += $len + 1;
    }
    $question = substr($query, 12, $at + 5 - 12);
    $type = unpack('n', $query, $at + 1)[1];
    $first = $labels[0] ?? '';
    if (str_starts_with($first, 'never-')) {
        return null;
    }
    $delay = preg_match('/^slow(\d+)-/', $first, $m) === 1 ? (int) $m[1] / 1000 : 0.0;
    $rcode = str_starts_with($first, 'nx-') ? RCODE_NXDOMAIN : 0;
    $records = $rcode === 0 && $type === TYPE_A
        ? pack('nnnNn', 0xC00C, TYPE_A, 1, 0, 4) . inet_pton('127.0.0.1')
        : '';
    $recursionDesired = ord($query[2]) & 0x01;
    $header = substr($query, 0, 2)
        . pack('nnnnn', 0x8480 | ($recursionDesired << 8) | $rcode, 1, $records === '' ? 0 : 1, 0, 0);

    return [$delay, $header . $question . $records];
}
