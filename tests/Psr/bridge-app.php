<?php

/*
 * The app BridgeTest serves: the PSR-7 bridge used directly, with the
 * PSR-17 factories named by RAPIER_TEST_PSR17. /describe answers with
 * what the ServerRequest holds, /body with what its body stream does; the
 * other paths answer with PSR-7 responses of each kind the emitter handles.
 */

declare(strict_types=1);

use Psr\Http\Message\ServerRequestInterface;
use Psr\Http\Message\UploadedFileInterface;
use Rapier\Http\Psr\Psr17Factories;
use Rapier\Http\Psr\ResponseEmitter;
use Rapier\Http\Psr\ServerRequestBuilder;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Rapier\Tests\Psr\BodyStreamProbe;

require_once __DIR__ . '/BodyStreamProbe.php';

$factories = Psr17Factories::detect(getenv('RAPIER_TEST_PSR17') ?: null);
$requests = new ServerRequestBuilder($factories);
$emitter = new ResponseEmitter();

$describe = static function (ServerRequestInterface $r) use ($factories): string {
    $uploads = [];
    $walk = static function (array $tree, string $prefix) use (&$walk, &$uploads): void {
        foreach ($tree as $key => $file) {
            if ($file instanceof UploadedFileInterface) {
                $uploads["$prefix$key"] = [$file->getClientFilename(), $file->getClientMediaType(), $file->getSize(),
                    $file->getError(), $file->getError() === UPLOAD_ERR_OK ? (string) $file->getStream() : null];
            } else {
                $walk($file, "$prefix$key.");
            }
        }
    };
    $walk($r->getUploadedFiles(), '');
    $uri = $r->getUri();

    return json_encode([
        'factory' => $factories->name(),
        'method' => $r->getMethod(),
        'target' => $r->getRequestTarget(),
        'uri' => (string) $uri,
        'host' => $uri->getHost(),
        'port' => $uri->getPort(),
        'path' => $uri->getPath(),
        'query_string' => $uri->getQuery(),
        'protocol' => $r->getProtocolVersion(),
        'headers' => $r->getHeaders(),
        'cookies' => $r->getCookieParams(),
        'query' => $r->getQueryParams(),
        'parsed' => $r->getParsedBody(),
        'uploads' => $uploads,
        'body' => (string) $r->getBody(),
        'server' => array_intersect_key($r->getServerParams(), array_flip(['REQUEST_METHOD', 'REMOTE_ADDR', 'SERVER_PROTOCOL'])),
    ], JSON_THROW_ON_ERROR);
};

return static function (Request $request, Response $response) use ($factories, $requests, $emitter, $describe): void {
    $psr = $requests->build($request);
    $f = $factories;
    $out = match ($psr->getUri()->getPath()) {
        '/describe' => $f->responses->createResponse(200)->withHeader('Content-Type', 'application/json')
            ->withBody($f->streams->createStream($describe($psr))),
        '/body' => $f->responses->createResponse(200)->withHeader('Content-Type', 'application/json')
            ->withBody($f->streams->createStream(json_encode(BodyStreamProbe::describe($psr->getBody()), JSON_THROW_ON_ERROR))),
        '/move' => (static function () use ($psr, $f) {
            $target = tempnam(sys_get_temp_dir(), 'rapier-moved-');
            unlink($target);
            $psr->getUploadedFiles()['doc']->moveTo($target);
            $moved = (string) file_get_contents($target);
            unlink($target);

            return $f->responses->createResponse(200)->withBody($f->streams->createStream("moved: $moved"));
        })(),
        '/headers' => $f->responses->createResponse(299, 'Custom Thing')
            ->withAddedHeader('Set-Cookie', 'a=1; Path=/')
            ->withAddedHeader('Set-Cookie', 'b=2; HttpOnly')
            ->withHeader('X-Multi', ['one', 'two'])
            ->withBody($f->streams->createStream('small')),
        '/written' => (static function () use ($f) {
            // Written and left at its end, as a handler that writes to the body does.
            $body = $f->streams->createStream('');
            $body->write('left at the end');

            return $f->responses->createResponse(200)->withBody($body);
        })(),
        '/big' => $f->responses->createResponse(200)->withBody($f->streams->createStream(str_repeat('0123456789abcdef', 3 << 16))),
        '/unsized' => $f->responses->createResponse(200)
            ->withBody($f->streams->createStreamFromResource(popen('seq 1 200000', 'r'))),
        '/file' => $f->responses->createResponse(200)->withHeader('Content-Type', 'application/octet-stream')
            ->withBody($f->streams->createStreamFromFile((string) getenv('RAPIER_TEST_BIG_FILE'), 'r')),
        default => $f->responses->createResponse(404),
    };
    $emitter->emit($out, $response, $request->method === 'HEAD');
};
