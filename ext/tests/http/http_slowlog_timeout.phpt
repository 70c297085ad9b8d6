--TEST--
HTTP: slowlog_timeout logs, once per request, where a handler that has run that long waits (its coroutine's backtrace, in one log line with the request and its worker), the handler going on, and counts it (stats(), the status document); fast handlers and handlers that never wait are not logged; also in a forked worker; the option is checked
--EXTENSIONS--
rapier
--FILE--
<?php
require __DIR__ . '/workers.inc';

$code = <<<'PHP'
function wait_for_the_backend(float $seconds): void
{
    Rapier\Coroutine::sleep($seconds);
}

final class Report
{
    public function build(): string
    {
        wait_for_the_backend(1.0);
        return "report\n";
    }
}
PHP;
$handler = 'function ($req, $res) {
    if ($req->path === "/slow") {
        $res->end((new Report())->build());
    } elseif ($req->path === "/count") {
        global $server;
        $res->end("stats()[\"slow\"]: " . $server->stats()["slow"] . "\n");
    } elseif ($req->path === "/busy") {
        $until = microtime(true) + 0.4;
        while (microtime(true) < $until) {
        }
        $res->end("busy\n");
    } else {
        $res->end("fast\n");
    }
}';

foreach ([0, 1] as $workers) {
    $log = tempnam(sys_get_temp_dir(), 'rapier-slowlog-');
    $options = ['workers' => $workers, 'slowlog_timeout' => 0.2, 'error_log' => $log];
    $srv = $workers ? new WorkersTestServer($handler, $options, $code) : http_server_start($handler, $options, $code);
    echo "workers $workers: ", http_get($srv->port, '/fast')['body'], http_get($srv->port, '/busy')['body'],
        http_get($srv->port, '/slow?q=1')['body'], http_get($srv->port, '/count')['body'];
    if ($workers) {
        $st = $srv->waitStatus(fn ($st) => ($st['totals']['slow'] ?? 0) === 1, 3, 'the slow request counted');
        echo "status: worker slow {$st['workers'][0]['slow']}, total slow {$st['totals']['slow']}\n";
    }
    $r = $srv->stop();
    $text = file_get_contents($log);
    unlink($log);
    echo "exit: {$r['code']}; slow requests logged: ", substr_count($text, 'slow request:'), "\n";
    if (!preg_match('~^\S+ \S+ \[rapier worker 0 \d+\] warning: (slow request: .*?)(?=\n\S|\z)~ms', $text, $m)) {
        echo "no slow request line in:\n$text";
        continue;
    }
    preg_match('~has run (\d+\.\d+) s~', $m[1], $run);
    echo "logged once it had run the timeout: ", var_export((float) $run[1] >= 0.2, true), "\n";
    /* The handler's own line moves with the options the harness writes above it. */
    echo preg_replace(['~/\S+/rapier-http-test-\w+~', '~\d+\.\d{3} s \(~', '~:\d{4,5} has~', '~#\d+, waits~',
        '~(build\(\) at SCRIPT):\d+~'], ['SCRIPT', 'N s (', ':PORT has', '#N, waits', '$1:L'], rtrim($m[1])), "\n";
}

try {
    new Rapier\Http\Server('127.0.0.1', 0, ['slowlog_timeout' => 0]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
workers 0: fast
busy
report
stats()["slow"]: 1
exit: 0; slow requests logged: 1
logged once it had run the timeout: true
slow request: GET /slow?q=1 from 127.0.0.1:PORT has run N s (slowlog_timeout 0.200 s); its handler, coroutine #N, waits in:
    #0 Rapier\Coroutine::sleep() at SCRIPT:4
    #1 wait_for_the_backend() at SCRIPT:11
    #2 Report->build() at SCRIPT:L
    #3 {closure}()
workers 1: fast
busy
report
stats()["slow"]: 1
status: worker slow 1, total slow 1
exit: 0; slow requests logged: 1
logged once it had run the timeout: true
slow request: GET /slow?q=1 from 127.0.0.1:PORT has run N s (slowlog_timeout 0.200 s); its handler, coroutine #N, waits in:
    #0 Rapier\Coroutine::sleep() at SCRIPT:4
    #1 wait_for_the_backend() at SCRIPT:11
    #2 Report->build() at SCRIPT:L
    #3 {closure}()
Rapier\Http\Server::__construct(): Argument #3 ($options) option "slowlog_timeout" must be a number of seconds greater than 0 and at most 9e9