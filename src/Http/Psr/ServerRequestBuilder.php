<?php

declare(strict_types=1);

namespace Rapier\Http\Psr;

use InvalidArgumentException;
use Psr\Http\Message\ServerRequestInterface;
use Psr\Http\Message\UploadedFileInterface;
use Psr\Http\Message\UriInterface;
use Rapier\Http\Request;

/**
 * Rapier\Http\Request -> PSR-7 ServerRequestInterface, with what a PHP-FPM
 * request would give: the URI (https:// for a request that came over
 * HTTPS), server params ($_SERVER), cookies, query and parsed body ($_POST
 * for form bodies), uploads as UploadedFileInterface, the raw body as a
 * stream.
 */
final class ServerRequestBuilder
{
    /**
     * A Host header must be a host name, an IPv4 or a bracketed IPv6
     * address, with an optional port: anything else (a path, "@", spaces)
     * would change what the URI means, so it is replaced by $defaultHost.
     */
    private const HOST = '/^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~%!$&\'()*+,;=-]+)(?::[0-9]{1,5})?$/D';

    public function __construct(
        private readonly Psr17Factories $factories,
        private readonly string $defaultHost = 'localhost',
    ) {
    }

    public function build(Request $request): ServerRequestInterface
    {
        // A body read while it arrives (request_buffering off), kept whole first, as PSR-7 needs it (spooled past
        // body_buffer_size); before the form in it is parsed.
        $request->bufferBody();
        $server = $request->server();
        $psr = $this->factories->serverRequests
            ->createServerRequest($request->method, $this->uri($request, $server), $server)
            ->withProtocolVersion(substr((string) ($server['SERVER_PROTOCOL'] ?? 'HTTP/1.1'), 5))
            ->withCookieParams($request->cookies)
            ->withQueryParams($request->query);
        if ($request->uri === '*') {
            $psr = $psr->withRequestTarget('*');
        }
        foreach ($request->headers as $name => $value) {
            $psr = $psr->withHeader((string) $name, $value);
        }
        if ($this->isForm($request->header('content-type'))) {
            $psr = $psr->withParsedBody($request->post);
        }
        if ($request->files !== []) {
            $psr = $psr->withUploadedFiles($this->uploadedFiles($request->files));
        }
        if ($request->bodyFile() !== null) {
            // Spooled past body_buffer_size: read from its file, never whole into memory.
            $psr = $psr->withBody($this->factories->streams->createStreamFromResource($request->bodyStream()));
        } elseif (($body = $request->body()) !== '') {
            $psr = $psr->withBody($this->factories->streams->createStream($body));
        }

        return $psr;
    }

    /** @param array<string, mixed> $server */
    private function uri(Request $request, array $server): UriInterface
    {
        $uris = $this->factories->uris;
        $target = $request->uri;
        if (preg_match('#^https?://#i', $target) === 1) {
            // The absolute form (sent to proxies): it names the host itself.
            try {
                return $uris->createUri($target);
            } catch (InvalidArgumentException) {
                $target = $request->path;
            }
        }
        $scheme = ($server['REQUEST_SCHEME'] ?? '') === 'https' ? 'https' : 'http';
        $host = $request->header('host');
        if ($host === null || preg_match(self::HOST, $host) !== 1) {
            $host = $this->defaultHost . ':' . ($server['SERVER_PORT'] ?? ($scheme === 'https' ? 443 : 80));
        }
        if (($target[0] ?? '') !== '/') {
            // "*" (OPTIONS *): the URI gets the root path; build() keeps the target.
            $target = '/';
        }
        try {
            return $uris->createUri($scheme . '://' . $host . $target);
        } catch (InvalidArgumentException) {
            // A target parse_url() refuses: the decoded path and the query, set apart (the factory encodes them).
            return $uris->createUri($scheme . '://' . $host)
                ->withPath($request->path)
                ->withQuery((string) ($server['QUERY_STRING'] ?? ''));
        }
    }

    private function isForm(?string $contentType): bool
    {
        if ($contentType === null) {
            return false;
        }
        $type = strtolower(trim(explode(';', $contentType, 2)[0]));

        return $type === 'application/x-www-form-urlencoded' || $type === 'multipart/form-data';
    }

    /**
     * $_FILES' shape (name, type, tmp_name, error, size, each an array for
     * `field[]` inputs) -> a tree of UploadedFileInterface.
     *
     * @param array<string, mixed> $files
     * @return array<string, mixed>
     */
    private function uploadedFiles(array $files): array
    {
        $tree = [];
        foreach ($files as $field => $info) {
            $tree[$field] = $this->fileTree($info['name'], $info['type'], $info['tmp_name'], $info['error'], $info['size']);
        }

        return $tree;
    }

    private function fileTree(mixed $name, mixed $type, mixed $tmpName, mixed $error, mixed $size): UploadedFileInterface|array
    {
        if (!is_array($tmpName)) {
            return $this->uploadedFile((string) $name, (string) $type, (string) $tmpName, (int) $error, (int) $size);
        }
        $tree = [];
        foreach ($tmpName as $key => $tmp) {
            $tree[$key] = $this->fileTree($name[$key] ?? '', $type[$key] ?? '', $tmp, $error[$key] ?? UPLOAD_ERR_NO_FILE, $size[$key] ?? 0);
        }

        return $tree;
    }

    private function uploadedFile(string $name, string $type, string $tmpName, int $error, int $size): UploadedFileInterface
    {
        $streams = $this->factories->streams;
        // The temporary file belongs to the Request: it is deleted when the Request is freed unless moved away.
        $stream = $error === UPLOAD_ERR_OK ? $streams->createStreamFromFile($tmpName, 'r') : $streams->createStream('');

        return $this->factories->uploadedFiles->createUploadedFile(
            $stream,
            $size,
            $error,
            $name === '' ? null : $name,
            $type === '' ? null : $type,
        );
    }
}
