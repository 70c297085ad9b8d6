<?php

/*
 * The routes every app in tests/apps/ serves alike (tests/Adapter/AppContract.php
 * runs the same cases against each).
 *
 * @var \Laravel\Lumen\Routing\Router $router
 */

use App\Http\Controllers\ProbeController;
use Illuminate\Http\Request;
use Symfony\Component\HttpFoundation\Cookie;

$router->get('/', fn () => '<h1>Hello from lumen</h1>');

$router->get('/json', fn (Request $request) => ['framework' => 'lumen', 'hello' => $request->query('name')]);

// ?exit=1: an exit() inside a route with a parameter (its metrics label is still the route's).
$router->get('/users/{id:[0-9]+}', fn (Request $request, $id) => $request->query('exit') ? exit('bye') : ['id' => (int) $id]);

$router->post('/echo', fn (Request $request) => [
    'json' => $request->json()->all(),
    'query' => $request->query(),
    'header' => $request->header('X-Test'),
]);

$router->addRoute(['POST', 'PUT'], '/form', fn (Request $request) => [
    'method' => $request->method(),
    'name' => $request->input('name'),
    'tags' => $request->input('tags'),
]);

$router->post('/upload', function (Request $request) {
    $file = $request->file('doc');
    $size = $file->getSize();
    $hash = sha1_file($file->getPathname());
    $moved = $file->move(storage_path('app/uploads'), bin2hex(random_bytes(8)));

    return [
        'name' => $file->getClientOriginalName(),
        'size' => $size,
        'sha1' => $hash,
        'stored' => sha1_file($moved->getPathname()) === $hash,
    ];
});

// The raw body as the framework gives it, read twice (a body Rapier spooled
// to a file reaches the app as a stream, which must rewind), and the URI of
// the stream the framework holds it in.
$router->addRoute(['POST', 'PUT'], '/body', function (Request $request) {
    $content = $request->getContent();

    return [
        'size' => strlen($content),
        'sha1' => sha1($content),
        'again' => $request->getContent() === $content,
        // Code written for php-fpm reads the body itself.
        'input' => sha1((string) file_get_contents('php://input')),
        'stream' => stream_get_meta_data($request->getContent(true))['uri'] ?? null,
    ];
});

$router->get('/session', function (Request $request) {
    if ($request->query('put') !== null) {
        $request->session()->put('value', $request->query('put'));
    }

    return ['value' => $request->session()->get('value')];
});

$router->get('/redirect', fn () => redirect('/json?name=redirected'));

$router->get('/cookies/set', fn () => response('cookies set')
    ->withCookie(Cookie::create('flavor', 'chocolate', time() + 600))
    ->withCookie(Cookie::create('size', 'large', time() + 600)));

$router->get('/cookies', fn (Request $request) => [
    'flavor' => $request->cookie('flavor'),
    'size' => $request->cookie('size'),
]);

$router->get('/error', function () {
    throw new RuntimeException('secret-boom');
});

$router->get('/native', function () {
    echo 'echoed;';
    header('X-Native: yes');
    setcookie('native', 'n1');

    return response('body');
});

$router->get('/whoami', fn () => ['user' => app('auth')->user()?->name]);

$router->get('/stream', fn () => response()->stream(function () {
    echo 'chunk1';
    flush();
    echo 'chunk2';
}));

// Server-Sent Events loops that stop once their client leaves (tests/apps/events.php).
require_once __DIR__ . '/../../events.php';
$router->get('/events', fn () => response()->stream(
    fn () => rapier_test_event_stream((string) request()->query('id'), request()->query('heed') !== '0'),
    200,
    ['Content-Type' => 'text/event-stream', 'X-Accel-Buffering' => 'no'],
));
$router->get('/events-seen', fn () => response(rapier_test_events_seen((string) request()->query('id'))));

// 103 Early Hints as Symfony 6.3+ sends them (tests/apps/hints.php).
require_once __DIR__ . '/../../hints.php';
$router->get('/hints', fn () => new Illuminate\Http\Response(
    json_encode(['hinted' => rapier_test_send_early_hints()]),
    200,
    rapier_test_hinted_response_headers(),
));

$router->get('/download', fn () => response()->download(resource_path('files/download.txt')));

$router->get('/globals', fn () => [
    'get' => $_GET,
    'cookie' => $_COOKIE,
    'method' => $_SERVER['REQUEST_METHOD'] ?? null,
    'uri' => $_SERVER['REQUEST_URI'] ?? null,
    'script' => $_SERVER['SCRIPT_NAME'] ?? null,
]);

$router->get('/pid', fn () => ['pid' => getmypid()]);

// exit() ends the request with what PHP has: status, headers, output so far.
// The state it set must not reach the next request.
$router->get('/exit', function () {
    App\Support\Probe::$value = 'static';
    $GLOBALS['probe_global'] = 'global';
    http_response_code(202);
    header('X-Exit: yes');
    echo 'echoed;';
    exit('bye');
});

$router->get('/stream-exit', fn () => response()->stream(function () {
    echo 'chunk1;';
    flush();
    exit('bye');
}));

$router->get('/dd', function () {
    dd(['answer' => 42]);
});

// PHP's process-wide settings: changed by one request, read by the next (tests/apps/settings.php).
require_once __DIR__ . '/../../settings.php';
$router->get('/settings/change', fn () => rapier_test_settings_change());
$router->get('/settings', fn () => rapier_test_settings());

$router->get('/leak/set', ProbeController::class . '@set');
$router->get('/leak/get', ProbeController::class . '@get');

// The cache store `rapier`, one table for every worker of `rapier serve`
// (tests/Cache/ServeLaravelCacheTest.php; the config file declares the table).
$router->get('/cache/count', fn () => ['count' => app('cache')->store('rapier')->increment('count'), 'pid' => getmypid()]);
