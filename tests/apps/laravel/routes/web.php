<?php

/*
 * The routes every app in tests/apps/ serves alike (tests/Adapter/AppContract.php
 * runs the same cases against each), plus Laravel's CSRF check.
 */

use App\Http\Controllers\ProbeController;
use Illuminate\Http\Request;
use Illuminate\Support\Facades\Auth;
use Illuminate\Support\Facades\DB;
use Illuminate\Support\Facades\Event;
use Illuminate\Support\Facades\Route;

Route::get('/', fn () => '<h1>Hello from laravel</h1>');

Route::get('/json', fn (Request $request) => ['framework' => 'laravel', 'hello' => $request->query('name')]);

// ?exit=1: an exit() inside a route with a parameter (its metrics label is still the route's).
Route::get('/users/{id}', fn (Request $request, int $id) => $request->query('exit') ? exit('bye') : ['id' => $id])
    ->where('id', '[0-9]+');

Route::post('/echo', fn (Request $request) => [
    'json' => $request->json()->all(),
    'query' => $request->query(),
    'header' => $request->header('X-Test'),
]);

Route::match(['POST', 'PUT'], '/form', fn (Request $request) => [
    'method' => $request->method(),
    'name' => $request->input('name'),
    'tags' => $request->input('tags'),
]);

Route::post('/upload', function (Request $request) {
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
Route::match(['POST', 'PUT'], '/body', function (Request $request) {
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

Route::get('/session', function (Request $request) {
    if ($request->query('put') !== null) {
        $request->session()->put('value', $request->query('put'));
    }

    return ['value' => $request->session()->get('value')];
});

Route::get('/redirect', fn () => redirect('/json?name=redirected'));

Route::get('/cookies/set', fn () => response('cookies set')
    ->cookie('flavor', 'chocolate', 10)
    ->cookie('size', 'large', 10));

Route::get('/cookies', fn (Request $request) => [
    'flavor' => $request->cookie('flavor'),
    'size' => $request->cookie('size'),
]);

Route::get('/error', function () {
    throw new RuntimeException('secret-boom');
});

Route::get('/native', function () {
    echo 'echoed;';
    header('X-Native: yes');
    setcookie('native', 'n1');

    return response('body');
});

Route::get('/whoami', fn () => ['user' => Auth::user()?->name]);

Route::get('/stream', fn () => response()->stream(function () {
    echo 'chunk1';
    flush();
    echo 'chunk2';
}));

// Server-Sent Events loops that stop once their client leaves (tests/apps/events.php).
require_once __DIR__ . '/../../events.php';
Route::get('/events', fn () => response()->stream(
    fn () => rapier_test_event_stream((string) request()->query('id'), request()->query('heed') !== '0'),
    200,
    ['Content-Type' => 'text/event-stream', 'X-Accel-Buffering' => 'no'],
));
Route::get('/events-seen', fn () => response(rapier_test_events_seen((string) request()->query('id'))));

// 103 Early Hints as Symfony 6.3+ sends them (tests/apps/hints.php).
require_once __DIR__ . '/../../hints.php';
Route::get('/hints', fn () => new Illuminate\Http\Response(
    json_encode(['hinted' => rapier_test_send_early_hints()]),
    200,
    rapier_test_hinted_response_headers(),
));

Route::get('/download', fn () => response()->download(resource_path('files/download.txt')));

Route::get('/globals', fn () => [
    'get' => $_GET,
    'cookie' => $_COOKIE,
    'method' => $_SERVER['REQUEST_METHOD'] ?? null,
    'uri' => $_SERVER['REQUEST_URI'] ?? null,
    'script' => $_SERVER['SCRIPT_NAME'] ?? null,
]);

Route::get('/pid', fn () => ['pid' => getmypid()]);

// exit() ends the request with what PHP has: status, headers, output so far.
// The state it set must not reach the next request.
Route::get('/exit', function () {
    App\Support\Probe::$value = 'static';
    $GLOBALS['probe_global'] = 'global';
    http_response_code(202);
    header('X-Exit: yes');
    echo 'echoed;';
    exit('bye');
});

Route::get('/stream-exit', fn () => response()->stream(function () {
    echo 'chunk1;';
    flush();
    exit('bye');
}));

Route::get('/dd', function () {
    dd(['answer' => 42]);
});

// PHP's process-wide settings: changed by one request, read by the next (tests/apps/settings.php).
require_once __DIR__ . '/../../settings.php';
Route::get('/settings/change', fn () => rapier_test_settings_change());
Route::get('/settings', fn () => rapier_test_settings());

// One route for both, so that both meet the controller instance the route caches.
Route::get('/leak/{action}', ProbeController::class)->where('action', 'set|get');

Route::view('/csrf', 'csrf');
Route::post('/csrf-form', fn (Request $request) => ['name' => $request->input('name')]);

// Eloquent's boot: a model first used by a request (Note) boots in every
// request's eyes, and one booted with the application (Tag) keeps exactly
// its boot listeners.
Route::get('/eloquent', function () {
    DB::statement('CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, name TEXT, slug TEXT, created_at TEXT, updated_at TEXT)');
    $note = App\Models\Note::create(['name' => 'n' . random_int(1, 1000000)]);
    new App\Models\Tag();

    return [
        'slug' => $note->slug === 'slug-' . $note->name,
        'note_listeners' => count(Event::getListeners('eloquent.creating: ' . App\Models\Note::class)),
        'tag_listeners' => count(Event::getListeners('eloquent.creating: ' . App\Models\Tag::class)),
    ];
});

// A streamed callback that closes every output buffer, a common idiom
// before a long stream.
Route::get('/stream-closes-buffers', fn () => response()->stream(function () {
    echo 'before;';
    while (ob_get_level() > 0) {
        ob_end_flush();
    }
    echo 'after;';
}));

// What Laravel makes of a request that came over HTTPS (tests/Cli/ServeHttpsTest.php).
Route::get('/secure', fn (Request $request) => [
    'secure' => $request->isSecure(),
    'url' => url('/json'),
    'scheme' => $request->server('REQUEST_SCHEME'),
    'client' => $request->server('SSL_CLIENT_S_DN'),
    'proxied_client' => $request->server('PROXY_PROTOCOL_TLV_SSL_CN'),
]);

// The cache store `rapier`, one table for every worker of `rapier serve`
// (tests/Cache/ServeLaravelCacheTest.php; the config file declares the table).
Route::get('/cache/count', fn () => [
    'count' => Illuminate\Support\Facades\Cache::store('rapier')->increment('count'),
    'pid' => getmypid(),
]);
Route::get('/cache/remember', fn () => [
    'value' => Illuminate\Support\Facades\Cache::store('rapier')->remember('remembered', 60, fn () => 'by ' . getmypid()),
]);
Route::get('/cache/throttled', fn () => ['pid' => getmypid()])
    ->middleware(Illuminate\Routing\Middleware\ThrottleRequests::class . ':5,1');
