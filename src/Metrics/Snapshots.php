<?php

declare(strict_types=1);

namespace Rapier\Metrics;

/**
 * The run directory where workers publish their metrics: one JSON file
 * per worker pid (`<pid>.json`), replaced atomically (a temporary file,
 * then rename()), so a reader sees an old or a new snapshot, never half
 * of one.
 *
 * A worker that has exited (a reload, a recycle, a crash) leaves its last
 * snapshot behind. Dropping it would make the request counters go down,
 * which Prometheus reads as a counter reset; instead its counters are
 * folded into `retired.json` (under an flock, since any worker may be the
 * one that notices) and the file removed. Gauges of a dead worker are
 * dropped with it.
 */
final class Snapshots
{
    private const RETIRED = 'retired.json';
    private const LOCK = '.lock';

    public function __construct(public readonly string $dir)
    {
    }

    /** The run directory of the server whose pid file is $pidFile. */
    public static function forPidFile(string $pidFile): self
    {
        return new self($pidFile . '.metrics');
    }

    /** Empties (and creates) the directory: counters start at zero with the server. */
    public function reset(): void
    {
        if (!is_dir($this->dir) && !@mkdir($this->dir, 0700, true) && !is_dir($this->dir)) {
            throw new \RuntimeException("Cannot create the metrics directory {$this->dir}");
        }
        foreach (glob($this->dir . '/*.json') ?: [] as $file) {
            @unlink($file);
        }
    }

    /** @param array<string, mixed> $snapshot */
    public function write(int $pid, array $snapshot): void
    {
        $file = "{$this->dir}/$pid.json";
        $temporary = "{$this->dir}/.$pid.tmp";
        if (@file_put_contents($temporary, json_encode($snapshot, JSON_PRESERVE_ZERO_FRACTION)) !== false) {
            @rename($temporary, $file);
        }
    }

    /**
     * The snapshots of the live workers by pid, once the dead ones'
     * counters are folded into the retired registry.
     *
     * @param callable(int): bool $alive
     * @return array{0: array<int, array<string, mixed>>, 1: Registry} [snapshots by pid, retired counters]
     */
    public function collect(callable $alive): array
    {
        $live = [];
        $dead = [];
        foreach (glob($this->dir . '/*.json') ?: [] as $file) {
            $pid = (int) basename($file, '.json');
            if ($pid <= 0) {
                continue;
            }
            if ($alive($pid)) {
                $snapshot = self::read($file);
                if ($snapshot !== null) {
                    $live[$pid] = $snapshot;
                }
            } else {
                $dead[] = $file;
            }
        }
        $retired = $dead === [] ? $this->readRetired() : $this->retire($dead);
        ksort($live);

        return [$live, $retired];
    }

    /** @param list<string> $files */
    private function retire(array $files): Registry
    {
        $lock = @fopen("{$this->dir}/" . self::LOCK, 'c');
        if ($lock === false) {
            return $this->readRetired();
        }
        flock($lock, LOCK_EX);
        try {
            $retired = $this->readRetired();
            $changed = false;
            foreach ($files as $file) {
                // Another worker may have folded it between our glob() and the lock.
                $snapshot = self::read($file);
                if ($snapshot !== null && @unlink($file)) {
                    $retired->add(Registry::fromArray((array) ($snapshot['registry'] ?? [])));
                    $changed = true;
                }
            }
            if ($changed) {
                $temporary = "{$this->dir}/." . self::RETIRED . '.tmp';
                file_put_contents($temporary, json_encode(['registry' => $retired->toArray()], JSON_PRESERVE_ZERO_FRACTION));
                rename($temporary, "{$this->dir}/" . self::RETIRED);
            }

            return $retired;
        } finally {
            flock($lock, LOCK_UN);
            fclose($lock);
        }
    }

    private function readRetired(): Registry
    {
        $data = self::read("{$this->dir}/" . self::RETIRED);

        return Registry::fromArray((array) ($data['registry'] ?? []));
    }

    /** @return array<string, mixed>|null */
    private static function read(string $file): ?array
    {
        $json = @file_get_contents($file);
        $data = $json === false ? null : json_decode($json, true);

        return is_array($data) ? $data : null;
    }
}
