<?php

/*
 * The report side of the benchmark.
 *
 *   php results.php machine RAPIER_SO            machine description as JSON (stdout)
 *   php results.php render DIR DURATION FULL     from DIR/runs.jsonl, machine.json, notes.txt:
 *                                               results.md, results.json, chart.png in DIR
 *                                               and DIR/../latest.md
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/Machine.php';
require __DIR__ . '/Report.php';
require __DIR__ . '/Rounds.php';
require __DIR__ . '/Floors.php';
require __DIR__ . '/Chart.php';

/** @return list<array<string, mixed>> */
function read_runs(string $file): array
{
    $runs = [];
    foreach (is_file($file) ? file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) : [] as $line) {
        $runs[] = json_decode($line, true, flags: JSON_THROW_ON_ERROR);
    }

    return $runs;
}

function render(string $dir, int $duration, bool $full): void
{
    $runs = read_runs("$dir/runs.jsonl");
    $machine = json_decode((string) file_get_contents("$dir/machine.json"), true, flags: JSON_THROW_ON_ERROR);
    $notes = is_file("$dir/notes.txt") ? file("$dir/notes.txt", FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) : [];
    $report = new Report($runs, $machine, $notes, $duration, $full);

    if (!(new Chart($report))->write("$dir/chart.png")) {
        $notes[] = 'gnuplot could not draw the chart (see chart.gp)';
        $report = new Report($runs, $machine, $notes, $duration, $full);
    }
    file_put_contents("$dir/results.md", $report->markdown('chart.png'));
    // The same one level up, pointing into this run's directory.
    file_put_contents(dirname($dir) . '/latest.md', $report->markdown(basename($dir) . '/chart.png'));
    file_put_contents("$dir/results.json", json_encode([
        'machine' => $machine,
        'settings' => ['full' => $full, 'duration_s' => $duration, 'rounds' => $report->roundCount, 'wrk_threads' => 2, 'wrk_timeout_s' => 2],
        'runs' => $runs,
        'notes' => $notes,
    ], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR) . "\n");
}

match ($argv[1] ?? '') {
    'machine' => print(json_encode(Machine::describe($argv[2] ?? ''), JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR) . "\n"),
    'render' => render($argv[2], (int) ($argv[3] ?? 5), ($argv[4] ?? '0') === '1'),
    default => (function (): never {
        fwrite(STDERR, "usage: php results.php machine RAPIER_SO | render DIR DURATION FULL\n");
        exit(2);
    })(),
};
