<?php

declare(strict_types=1);

namespace Rapier\Metrics;

/**
 * Writes the Prometheus text exposition format 0.0.4: per metric family
 * a `# HELP` and a `# TYPE` line, then its samples
 * `name{label="value",...} value`. Label values are escaped as the format
 * says (backslash, double quote, line feed); HELP text escapes backslash
 * and line feed.
 */
final class TextFormat
{
    public const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

    private string $text = '';

    /** Starts a family; its samples follow. $type: counter, gauge or histogram. */
    public function family(string $name, string $type, string $help): self
    {
        $this->text .= '# HELP ' . $name . ' ' . strtr($help, ['\\' => '\\\\', "\n" => '\\n']) . "\n"
            . "# TYPE $name $type\n";

        return $this;
    }

    /** @param array<string, string> $labels */
    public function sample(string $name, array $labels, int|float $value): self
    {
        $this->text .= $name . self::labels($labels) . ' ' . self::value($value) . "\n";

        return $this;
    }

    /**
     * A histogram's samples from per-bucket counts (not cumulative, the
     * last above the highest bound): cumulative `_bucket` lines ending
     * with le="+Inf", then `_sum` and `_count`.
     *
     * @param array<string, string> $labels
     * @param list<float> $bounds
     * @param list<int> $counts
     */
    public function histogram(string $name, array $labels, array $bounds, array $counts, float $sum): self
    {
        $cumulative = 0;
        foreach ($bounds as $i => $bound) {
            $cumulative += $counts[$i];
            $this->sample("{$name}_bucket", $labels + ['le' => self::value($bound)], $cumulative);
        }
        $cumulative += $counts[count($bounds)];
        $this->sample("{$name}_bucket", $labels + ['le' => '+Inf'], $cumulative);
        $this->sample("{$name}_sum", $labels, $sum);

        return $this->sample("{$name}_count", $labels, $cumulative);
    }

    public function text(): string
    {
        return $this->text;
    }

    /** @param array<string, string> $labels */
    private static function labels(array $labels): string
    {
        if ($labels === []) {
            return '';
        }
        $pairs = [];
        foreach ($labels as $name => $value) {
            $pairs[] = $name . '="' . strtr($value, ['\\' => '\\\\', '"' => '\\"', "\n" => '\\n']) . '"';
        }

        return '{' . implode(',', $pairs) . '}';
    }

    private static function value(int|float $value): string
    {
        if (is_int($value)) {
            return (string) $value;
        }
        if (is_nan($value)) {
            return 'NaN';
        }
        if (is_infinite($value)) {
            return $value > 0 ? '+Inf' : '-Inf';
        }
        // Shortest form that reads back as the same float (serialize_precision -1).
        $text = var_export($value, true);

        return str_ends_with($text, '.0') ? substr($text, 0, -2) : $text;
    }
}
