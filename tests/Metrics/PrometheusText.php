<?php

declare(strict_types=1);

namespace Rapier\Tests\Metrics;

use RuntimeException;

/**
 * A strict little reader of the Prometheus text format for the tests:
 * every line is a `# HELP`/`# TYPE` comment or `name{labels} value`;
 * anything else throws, so a test using it also checks the output parses.
 */
final class PrometheusText
{
    /** @param list<array{name: string, labels: array<string, string>, value: float}> $samples @param array<string, string> $types */
    private function __construct(public readonly array $samples, public readonly array $types)
    {
    }

    public static function parse(string $text): self
    {
        if ($text !== '' && !str_ends_with($text, "\n")) {
            throw new RuntimeException('the exposition does not end with a line feed');
        }
        $samples = [];
        $types = [];
        foreach (explode("\n", rtrim($text, "\n")) as $n => $line) {
            if (preg_match('/^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/D', $line, $m) === 1) {
                if ($m[1] === 'TYPE') {
                    if (!in_array($m[3], ['counter', 'gauge', 'histogram', 'summary', 'untyped'], true) || isset($types[$m[2]])) {
                        throw new RuntimeException("line " . ($n + 1) . ": bad or repeated TYPE: $line");
                    }
                    $types[$m[2]] = $m[3];
                }
                continue;
            }
            $samples[] = self::sample($line, $n + 1);
        }

        return new self($samples, $types);
    }

    /** The value of the one sample named $name with exactly these labels, null when absent. */
    public function value(string $name, array $labels = []): ?float
    {
        ksort($labels);
        foreach ($this->samples as $s) {
            $theirs = $s['labels'];
            ksort($theirs);
            if ($s['name'] === $name && $theirs === $labels) {
                return $s['value'];
            }
        }

        return null;
    }

    /** @return list<array{name: string, labels: array<string, string>, value: float}> */
    public function named(string $name): array
    {
        return array_values(array_filter($this->samples, static fn (array $s): bool => $s['name'] === $name));
    }

    /** @return array{name: string, labels: array<string, string>, value: float} */
    private static function sample(string $line, int $n): array
    {
        if (preg_match('/^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/D', $line, $m) !== 1) {
            throw new RuntimeException("line $n is not `name{labels} value`: $line");
        }
        $labels = [];
        $rest = $m[3] ?? '';
        while ($rest !== '') {
            if (preg_match('/^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\n]|\\\\[\\\\"n])*)"(,|$)/', $rest, $l) !== 1) {
                throw new RuntimeException("line $n: bad labels: $line");
            }
            $labels[$l[1]] = strtr($l[2], ['\\\\' => '\\', '\\"' => '"', '\\n' => "\n"]);
            $rest = substr($rest, strlen($l[0]));
        }
        $value = match ($m[4]) {
            '+Inf' => INF,
            '-Inf' => -INF,
            'NaN' => NAN,
            default => is_numeric($m[4]) ? (float) $m[4] : throw new RuntimeException("line $n: bad value: $line"),
        };

        return ['name' => $m[1], 'labels' => $labels, 'value' => $value];
    }
}
