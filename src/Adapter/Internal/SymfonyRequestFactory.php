<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Rapier\Http\Request;
use Symfony\Component\HttpFoundation\Request as SymfonyRequest;

/**
 * A Symfony HttpFoundation request from a Rapier request, equal to the one
 * Request::createFromGlobals() makes under php-fpm.
 *
 * As PHP does, a body fills the request bag and the uploaded files only for
 * POST; for PUT, PATCH and DELETE an urlencoded body fills the request bag
 * as createFromGlobals() does. A multipart body is not kept as the raw
 * content: under php-fpm php://input is empty for it too, and it may be
 * large. Uploads become UploadedFile objects (FileBag does that), and pass
 * is_uploaded_file() because the server registers them with PHP.
 *
 * @internal
 */
final class SymfonyRequestFactory
{
    private const FORM_METHODS = ['PUT' => true, 'PATCH' => true, 'DELETE' => true];

    /** @param array<string, mixed> $server the request's $_SERVER */
    public static function create(Request $request, array $server): SymfonyRequest
    {
        $contentType = strtolower($request->headers['content-type'] ?? '');
        $post = [];
        $files = [];
        if ($request->method === 'POST') {
            $post = $request->post;
            $files = $request->files;
        } elseif (isset(self::FORM_METHODS[$request->method])
            && str_starts_with($contentType, 'application/x-www-form-urlencoded')) {
            $post = $request->post;
        }
        $content = str_starts_with($contentType, 'multipart/form-data') ? '' : $request->body();

        return new SymfonyRequest($request->query, $post, [], $request->cookies, $files, $server, $content);
    }
}
