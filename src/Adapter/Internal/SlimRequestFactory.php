<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Rapier\Http\Request;
use Slim\Http\Body;
use Slim\Http\Cookies;
use Slim\Http\Environment;
use Slim\Http\Headers;
use Slim\Http\Request as SlimRequest;
use Slim\Http\UploadedFile;
use Slim\Http\Uri;

/**
 * A Slim 3 request from a Rapier request, as Request::createFromEnvironment()
 * builds it under php-fpm, except for the body: Slim would copy php://input,
 * which a CLI process does not have; the request's own body is used.
 * Uploads and the parsed form body come from $_FILES and $_POST, which
 * RequestScope has filled (as PHP does: for POST only).
 *
 * @internal
 */
final class SlimRequestFactory
{
    public static function create(Environment $environment, Request $request): SlimRequest
    {
        $headers = Headers::createFromEnvironment($environment);
        if ($request->bodyFile() !== null) {
            // Spooled past body_buffer_size: read from its file, never whole into memory.
            $body = new Body($request->bodyStream());
        } else {
            $body = new Body(fopen('php://temp', 'w+b'));
            $body->write($request->body());
            $body->rewind();
        }
        $slimRequest = new SlimRequest(
            $request->method,
            Uri::createFromEnvironment($environment),
            $headers,
            Cookies::parseHeader($headers->get('Cookie', [])),
            $environment->all(),
            $body,
            UploadedFile::createFromEnvironment($environment),
        );
        if ($request->method === 'POST'
            && in_array($slimRequest->getMediaType(), ['application/x-www-form-urlencoded', 'multipart/form-data'], true)) {
            $slimRequest = $slimRequest->withParsedBody($_POST);
        }

        return $slimRequest;
    }
}
