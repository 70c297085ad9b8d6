<?php

declare(strict_types=1);

namespace Rapier\Grpc;

use LogicException;
use Rapier\Grpc\Internal\Compression;
use Rapier\Grpc\Internal\Metadata;
use Rapier\Http\Request;
use Rapier\Http\Response;
use ValueError;

/**
 * One call, as an RPC method sees it when it takes a second parameter
 * typed Context: the client's metadata and deadline, and the metadata to
 * send back (headers before the first reply, trailers with the status).
 */
final class Context
{
    /** @var array<string, string> */
    private readonly array $metadata;
    /** @var list<array{string, string}> */
    private array $headers = [];
    /** @var list<array{string, string}> */
    private array $trailers = [];
    private bool $headersSent = false;
    /**
     * @var list<string>|null what the client's grpc-accept-encoding lists that the server writes (identity always);
     *      read when a call is to be compressed, not for every call
     */
    private ?array $acceptedEncodings = null;

    /**
     * @internal made by Rapier\Grpc\Server for each call
     * @param float|null $deadline the client's deadline, a Unix time in seconds
     * @param string $compression the server's choice for replies, before the client has a say
     * @throws GrpcException INTERNAL for a -bin value that is not base64, as grpc-go answers it
     */
    public function __construct(
        private readonly Request $request,
        private readonly Response $response,
        private readonly string $method,
        private readonly ?float $deadline,
        private string $compression = Compression::IDENTITY,
    ) {
        $metadata = [];
        foreach ($request->headers as $name => $value) {
            $key = strtolower((string) $name);
            if (Metadata::isMetadata($key)) {
                $metadata[$key] = Metadata::value($key, (string) $value);
            }
        }
        $this->metadata = $metadata;
    }

    /**
     * The client's metadata by lower-case key, without the fields HTTP/2
     * and gRPC use themselves (pseudo-headers, content-type, te, grpc-*).
     * Values of keys ending in -bin are base64-decoded. A key sent several
     * times comes joined by ", ", as the HTTP server joins repeated fields.
     *
     * @return array<string, string>
     */
    public function metadata(): array
    {
        return $this->metadata;
    }

    /** One metadata value by key (any case), null when the client sent none. */
    public function metadataValue(string $key): ?string
    {
        return $this->metadata[strtolower($key)] ?? null;
    }

    /** The client's deadline as a Unix time in seconds (microtime(true)'s clock); null without grpc-timeout. */
    public function deadline(): ?float
    {
        return $this->deadline;
    }

    /** Seconds until the deadline (0.0 once it passed); null without one. */
    public function timeRemaining(): ?float
    {
        return $this->deadline === null ? null : max(0.0, $this->deadline - microtime(true));
    }

    /**
     * Whether the call is over for the client: it canceled the call, reset
     * the stream or closed the connection, or the deadline passed. A method
     * that streams replies while it waits (a long watch) checks it now and
     * then, since a client that left is otherwise noticed only at the next
     * reply.
     */
    public function isCancelled(): bool
    {
        return !$this->response->isWritable() || $this->timeRemaining() === 0.0;
    }

    /** The method's path, "/helloworld.Greeter/SayHello". */
    public function method(): string
    {
        return $this->method;
    }

    /** The HTTP request underneath: remote address, raw headers, server() variables. */
    public function request(): Request
    {
        return $this->request;
    }

    /**
     * Adds response-header metadata, sent with the first reply message (or
     * with the status when there is none). Repeat a key to send it twice.
     *
     * @throws ValueError for a reserved or malformed key, or a text value that is not printable ASCII
     * @throws LogicException once the first reply was sent
     */
    public function setHeader(string $key, string $value): static
    {
        if ($this->headersSent) {
            throw new LogicException("cannot set header metadata '$key': the response headers went out with the "
                . 'first reply; set headers before the first reply (yield), or use setTrailer()');
        }
        $this->headers[] = Metadata::field($key, $value);

        return $this;
    }

    /**
     * Adds trailer metadata, sent with grpc-status when the call ends
     * (also when it ends with an error).
     *
     * @throws ValueError for a reserved or malformed key, or a text value that is not printable ASCII
     */
    public function setTrailer(string $key, string $value): static
    {
        $this->trailers[] = Metadata::field($key, $value);

        return $this;
    }

    /**
     * Compresses this call's replies with $encoding ("gzip", "deflate", or
     * "identity" for none), overriding the server's `compression`. It
     * applies only if the client's grpc-accept-encoding lists it (compression()
     * says what will be used), and to replies of at least the server's
     * compressMinBytes that it makes smaller.
     *
     * @throws ValueError for an encoding the server cannot write
     * @throws LogicException once the response headers went out (with the first reply)
     */
    public function setCompression(string $encoding): static
    {
        $encoding = strtolower($encoding);
        if (!in_array($encoding, Compression::ENCODINGS, true)) {
            throw new ValueError("cannot compress replies with '$encoding': use " . implode(', ', Compression::ENCODINGS));
        }
        if ($this->headersSent) {
            throw new LogicException("cannot compress with '$encoding': the response headers, which name the encoding, "
                . 'went out with the first reply; call setCompression() before the first reply (yield)');
        }
        $this->compression = $encoding;

        return $this;
    }

    /**
     * The encoding of this call's replies (its grpc-encoding): the one set
     * (the server's `compression` or setCompression()) if the client
     * accepts it, else "identity".
     */
    public function compression(): string
    {
        if ($this->compression === Compression::IDENTITY) {
            return Compression::IDENTITY;
        }
        $this->acceptedEncodings ??= Compression::acceptedBy($this->request->header('grpc-accept-encoding'));

        return in_array($this->compression, $this->acceptedEncodings, true) ? $this->compression : Compression::IDENTITY;
    }

    /** Whether the header metadata went out (with the first reply): setHeader() throws from then on. */
    public function headersSent(): bool
    {
        return $this->headersSent;
    }

    /**
     * @internal the Server takes the headers once, as it sends them
     * @return list<array{string, string}>
     */
    public function takeHeaders(): array
    {
        $this->headersSent = true;

        return $this->headers;
    }

    /**
     * @internal
     * @return list<array{string, string}>
     */
    public function trailers(): array
    {
        return $this->trailers;
    }
}
