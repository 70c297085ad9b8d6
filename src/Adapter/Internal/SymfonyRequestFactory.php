<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Closure;
use Illuminate\Http\Request as IlluminateRequest;
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
 * Laravel and Lumen requests come from createIlluminate(), equal to what
 * their capture() makes (createFromBase() of that Symfony request).
 *
 * @internal
 */
final class SymfonyRequestFactory
{
    private const FORM_METHODS = ['PUT' => true, 'PATCH' => true, 'DELETE' => true];

    /** Sets an Illuminate request's input bag as createFromBase() does (getInputSource() is protected). */
    private static ?Closure $useInputSource = null;

    /**
     * createFromBase() builds the request twice (an empty one, then its
     * duplicate) and copies every bag; building it once with the same bags
     * is a fifth of a Lumen hello. With uploads it takes the long way, for
     * its filtering of empty file entries.
     *
     * @template T of IlluminateRequest
     * @param class-string<T> $class
     * @param array<string, mixed> $server the request's $_SERVER
     * @return T
     */
    public static function createIlluminate(Request $request, array $server, string $class): IlluminateRequest
    {
        [$post, $files, $content] = self::body($request);
        if ($files !== []) {
            return $class::createFromBase(
                new SymfonyRequest($request->query, $post, [], $request->cookies, $files, $server, $content)
            );
        }
        $illuminate = new $class($request->query, $post, [], $request->cookies, [], $server, $content);
        self::$useInputSource ??= Closure::bind(static function (IlluminateRequest $request): void {
            $request->request = $request->getInputSource();
        }, null, IlluminateRequest::class);
        (self::$useInputSource)($illuminate);

        return $illuminate;
    }

    /** @param array<string, mixed> $server the request's $_SERVER */
    public static function create(Request $request, array $server): SymfonyRequest
    {
        [$post, $files, $content] = self::body($request);

        return new SymfonyRequest($request->query, $post, [], $request->cookies, $files, $server, $content);
    }

    /** @return array{array<string, mixed>, array<string, mixed>, string|resource} the request bag, the files, the content */
    private static function body(Request $request): array
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
        $content = match (true) {
            str_starts_with($contentType, 'multipart/form-data') => '',
            // Spooled past body_buffer_size: Symfony takes a stream as content, and reads it only when asked.
            $request->bodyFile() !== null => $request->bodyStream(),
            default => $request->body(),
        };

        return [$post, $files, $content];
    }
}
