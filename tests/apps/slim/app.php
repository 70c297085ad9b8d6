<?php

/*
 * The application, as `rapier serve` and public/index.php load it: a Slim 3
 * app with PHP's native sessions (as slim/flash or slim/csrf use them).
 * The routes are the ones every app in tests/apps/ serves alike
 * (tests/Adapter/AppContract.php). Sessions and uploads go to
 * $RAPIER_APP_STORAGE, never into the source tree.
 */

require_once __DIR__ . '/vendor/autoload.php';

use App\Support\Counter;
use App\Support\Probe;
use Slim\Http\Request;
use Slim\Http\Response;
use Slim\Http\Stream;

$storage = getenv('RAPIER_APP_STORAGE') ?: sys_get_temp_dir() . '/rapier-app-slim';
foreach (['sessions', 'uploads'] as $dir) {
    if (!is_dir("$storage/$dir")) {
        mkdir("$storage/$dir", 0777, true);
    }
}

$app = new Slim\App(['settings' => [
    'displayErrorDetails' => false,
    'outputBuffering' => 'prepend',
]]);
$container = $app->getContainer();
$container['counter'] = fn () => new Counter();
$container['storage'] = $storage;

// A native session for the routes that use one; PHP writes it when the request ends.
$session = function (Request $request, Response $response, callable $next) use ($storage) {
    session_save_path("$storage/sessions");
    session_name('slim_session');
    session_start();

    return $next($request, $response);
};

// The user named by X-User, kept in the container for this request only.
$app->add(function (Request $request, Response $response, callable $next) use ($container) {
    if ($request->hasHeader('X-User')) {
        $container['user'] = $request->getHeaderLine('X-User');
    }

    return $next($request, $response);
});

$app->get('/', fn (Request $req, Response $res) => $res->write('<h1>Hello from slim</h1>'));

$app->get('/json', fn (Request $req, Response $res) => $res->withJson([
    'framework' => 'slim',
    'hello' => $req->getQueryParam('name'),
]));

$app->get('/users/{id:[0-9]+}', fn (Request $req, Response $res, array $args) => $res->withJson(['id' => (int) $args['id']]));

$app->post('/echo', fn (Request $req, Response $res) => $res->withJson([
    'json' => $req->getParsedBody(),
    'query' => $req->getQueryParams(),
    'header' => $req->getHeaderLine('X-Test') ?: null,
]));

$app->map(['POST', 'PUT'], '/form', fn (Request $req, Response $res) => $res->withJson([
    'method' => $req->getMethod(),
    'name' => $req->getParsedBodyParam('name'),
    'tags' => $req->getParsedBodyParam('tags'),
]));

$app->post('/upload', function (Request $req, Response $res) use ($storage) {
    $file = $req->getUploadedFiles()['doc'];
    $hash = sha1_file($file->file);
    $target = "$storage/uploads/" . bin2hex(random_bytes(8));
    $file->moveTo($target);

    return $res->withJson([
        'name' => $file->getClientFilename(),
        'size' => $file->getSize(),
        'sha1' => $hash,
        'stored' => sha1_file($target) === $hash,
    ]);
});

// The raw body as the framework gives it, read twice (a body Rapier spooled
// to a file reaches the app as a stream, which must rewind), and the URI of
// the stream the framework holds it in.
$app->map(['POST', 'PUT'], '/body', function (Request $req, Response $res) {
    $content = (string) $req->getBody();

    return $res->withJson([
        'size' => strlen($content),
        'sha1' => sha1($content),
        'again' => (string) $req->getBody() === $content,
        // Code written for php-fpm reads the body itself.
        'input' => sha1((string) file_get_contents('php://input')),
        'stream' => $req->getBody()->getMetadata('uri'),
    ]);
});

$app->get('/session', function (Request $req, Response $res) {
    if ($req->getQueryParam('put') !== null) {
        $_SESSION['value'] = $req->getQueryParam('put');
    }

    return $res->withJson(['value' => $_SESSION['value'] ?? null]);
})->add($session);

$app->get('/redirect', fn (Request $req, Response $res) => $res->withRedirect('/json?name=redirected'));

$app->get('/cookies/set', fn (Request $req, Response $res) => $res
    ->withAddedHeader('Set-Cookie', 'flavor=chocolate; Max-Age=600; Path=/; HttpOnly')
    ->withAddedHeader('Set-Cookie', 'size=large; Max-Age=600; Path=/; HttpOnly')
    ->write('cookies set'));

$app->get('/cookies', fn (Request $req, Response $res) => $res->withJson([
    'flavor' => $req->getCookieParam('flavor'),
    'size' => $req->getCookieParam('size'),
]));

$app->get('/error', function () {
    throw new RuntimeException('secret-boom');
});

$app->get('/native', function (Request $req, Response $res) {
    echo 'echoed;';
    header('X-Native: yes');
    setcookie('native', 'n1');

    return $res->write('body');
});

$app->get('/whoami', fn (Request $req, Response $res) => $res->withJson([
    'user' => $this->has('user') ? $this->get('user') : null,
]));

$app->get('/stream', fn (Request $req, Response $res) => $res->write('chunk1')->write('chunk2'));

$app->get('/pid', fn (Request $req, Response $res) => $res->withJson(['pid' => getmypid()]));

// exit() ends the request with what PHP has: status, headers, output so far.
// The state it set must not reach the next request.
$app->get('/exit', function () {
    Probe::$value = 'static';
    $GLOBALS['probe_global'] = 'global';
    http_response_code(202);
    header('X-Exit: yes');
    echo 'echoed;';
    exit('bye');
});

// A PSR-7 body is not streamed: the same exit after output.
$app->get('/stream-exit', function () {
    echo 'chunk1;';
    exit('bye');
});

$app->get('/dd', function () {
    dd(['answer' => 42]);
});

// 103 Early Hints as Symfony 6.3+ sends them (tests/apps/hints.php).
require_once __DIR__ . '/../hints.php';
$app->get('/hints', function (Request $req, Response $res) {
    $res = $res->write(json_encode(['hinted' => rapier_test_send_early_hints()]));
    foreach (rapier_test_hinted_response_headers() as $name => $values) {
        $res = $res->withHeader($name, $values);
    }

    return $res;
});

$app->get('/download', fn (Request $req, Response $res) => $res
    ->withHeader('Content-Type', 'text/plain')
    ->withHeader('Content-Disposition', 'attachment; filename=download.txt')
    ->withBody(new Stream(fopen(__DIR__ . '/resources/files/download.txt', 'rb'))));

$app->get('/globals', fn (Request $req, Response $res) => $res->withJson([
    'get' => $_GET,
    'cookie' => $_COOKIE,
    'method' => $_SERVER['REQUEST_METHOD'] ?? null,
    'uri' => $_SERVER['REQUEST_URI'] ?? null,
    'script' => $_SERVER['SCRIPT_NAME'] ?? null,
]));

// PHP's process-wide settings: changed by one request, read by the next (tests/apps/settings.php).
require_once __DIR__ . '/../settings.php';
$app->get('/settings/change', fn (Request $req, Response $res) => $res->withJson(rapier_test_settings_change()));
$app->get('/settings', fn (Request $req, Response $res) => $res->withJson(rapier_test_settings()));

$app->get('/leak/set', function (Request $req, Response $res) {
    Probe::$value = 'static';
    $this['probe.instance'] = 'instance';
    $this->get('settings')['probe'] = 'config';
    $this->get('counter')->value = 'singleton';
    $GLOBALS['probe_global'] = 'global';
    header('X-Leak: 1');

    return $res->withJson(['set' => true]);
});

$app->get('/leak/get', fn (Request $req, Response $res) => $res->withJson([
    'static' => Probe::$value,
    'instance' => $this->has('probe.instance') ? $this->get('probe.instance') : null,
    'config' => $this->get('settings')['probe'] ?? null,
    'singleton' => $this->get('counter')->value,
    'global' => $GLOBALS['probe_global'] ?? null,
    'session' => null,
]));

return $app;
