<?php

/*
 * Single HTTP requests to a server under test: waiting for it to answer
 * after start, and the pre-check that each endpoint answers the right bytes
 * before wrk is pointed at it. The pre-check is stricter than the check wrk
 * runs on every response (bench/lib/validate.lua): it asks for user 42 and
 * compares the whole body with what the database holds.
 */

declare(strict_types=1);

namespace Bench;

final class Probe
{
    /**
     * Waits until $url answers (any status) or one of $pids has died.
     *
     * @param list<int> $pids
     */
    public static function wait(string $url, float $timeout, array $pids): bool
    {
        $deadline = microtime(true) + $timeout;
        while (microtime(true) < $deadline) {
            if (self::get($url) !== null) {
                return true;
            }
            foreach ($pids as $pid) {
                if (!is_dir("/proc/$pid")) {
                    return false;
                }
            }
            usleep(100_000);
        }

        return false;
    }

    /** Null when $scenario's endpoint answers as it must, else what is wrong. */
    public static function check(string $scenario, string $baseUrl, string $expectDir): ?string
    {
        $path = match ($scenario) {
            'user' => '/user/42',
            default => "/$scenario",
        };
        $response = self::get($baseUrl . $path);
        if ($response === null) {
            return "GET $path: no answer";
        }
        [$status, $body] = $response;
        $ok = $status === 200 && match ($scenario) {
            'hello' => preg_match('/^\{"time":(\d+),"str":"hello"\}$/', $body, $m) === 1 && abs((int) $m[1] - time()) <= 2,
            'user' => $body === file_get_contents("$expectDir/user.json"),
            'redis' => $body === file_get_contents("$expectDir/redis.json"),
            'users' => self::userCount($body) === 10,
            'queries' => self::userCount($body) === 100,
            'slow' => $body === '{"sleep":0}',
        };

        return $ok ? null : sprintf('GET %s answered %d %s', $path, $status, substr(preg_replace('/\s+/', ' ', $body), 0, 200));
    }

    private static function userCount(string $body): int
    {
        $users = json_decode($body, true);
        if (!is_array($users) || !array_is_list($users)) {
            return -1;
        }
        foreach ($users as $user) {
            if (!is_array($user) || !is_int($user['id'] ?? null) || !isset($user['email'], $user['password'])) {
                return -1;
            }
        }

        return count($users);
    }

    /** @return array{int, string}|null status and body, null when nothing answered */
    private static function get(string $url): ?array
    {
        // HTTPS servers show the run's throwaway self-signed certificate:
        // the probe checks what they answer, not who they are (wrk does not either).
        $context = stream_context_create(['http' => ['timeout' => 5, 'ignore_errors' => true],
            'ssl' => ['verify_peer' => false, 'verify_peer_name' => false]]);
        $body = @file_get_contents($url, false, $context);
        if ($body === false || !isset($http_response_header[0])
            || preg_match('#^HTTP/\S+ (\d{3})#', $http_response_header[0], $m) !== 1) {
            return null;
        }

        return [(int) $m[1], $body];
    }
}
