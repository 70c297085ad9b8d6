<?php

/*
 * Serves one of the test apps with Rapier\Http\Server and its framework
 * adapter, for tests/Adapter/ (until `rapier serve tests/apps/NAME` does
 * the same through bin/rapier).
 *
 *   php -d extension=rapier.so tests/apps/serve.php NAME PORT [WORKERS]
 *
 * NAME is laravel, lumen, symfony or slim. One worker by default, so that
 * consecutive requests reach the same process: that is what the tests of
 * state leaking from one request into the next need. The worker prints
 * "ready" on stderr once the app has booted.
 */

declare(strict_types=1);

use Rapier\Adapter\Adapter;
use Rapier\Adapter\LaravelAdapter;
use Rapier\Adapter\LumenAdapter;
use Rapier\Adapter\SlimAdapter;
use Rapier\Adapter\SymfonyAdapter;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\Http\Server;

require dirname(__DIR__, 2) . '/src/autoload.php';

[, $name, $port] = $argv + [null, null, null];
$workers = (int) ($argv[3] ?? 1);
if ($name === null || $port === null) {
    fwrite(STDERR, "usage: serve.php laravel|lumen|symfony|slim PORT [WORKERS]\n");
    exit(2);
}

// The app file runs in a scope of its own: its variables are not ours.
$load = static fn (string $file): mixed => require $file;
$dir = __DIR__ . '/' . $name;
$adapter = match ($name) {
    'laravel' => new LaravelAdapter($load($dir . '/bootstrap/app.php')),
    'lumen' => new LumenAdapter($load($dir . '/bootstrap/app.php')),
    'symfony' => new SymfonyAdapter($load($dir . '/app.php')),
    'slim' => new SlimAdapter($load($dir . '/app.php'), $dir),
    default => null,
};
if (!$adapter instanceof Adapter) {
    fwrite(STDERR, "serve.php: unknown app $name\n");
    exit(2);
}

$server = new Server('127.0.0.1', (int) $port, ['workers' => $workers, 'concurrency' => 1]);
$server->on('workerStart', static function () use ($adapter): void {
    $adapter->boot();
    // Not echo: output would go through PHP's output layer.
    fwrite(STDERR, "ready\n");
});
$server->on('request', static function (Request $request, Response $response) use ($adapter): void {
    $adapter->handle($request, $response);
});
$server->start();
