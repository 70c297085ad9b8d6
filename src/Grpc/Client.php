<?php

declare(strict_types=1);

namespace Rapier\Grpc;

use CurlMultiHandle;
use Google\Protobuf\Internal\Message;
use LogicException;
use Rapier\Grpc\Internal\Compression;
use Rapier\Grpc\Internal\Metadata;
use Rapier\Grpc\Internal\Timeout;
use ValueError;

/**
 * Calls gRPC services over HTTP/2 (docs/grpc.md, "Calling services"):
 * unary, server streaming, client streaming and bidirectional calls, with
 * metadata, deadlines, compression and rich error details, through
 * libcurl (ext/curl). Inside a coroutine a call waits without blocking
 * the worker, so a handler's calls to other services overlap with other
 * requests; outside one it blocks, as a plain PHP client does.
 *
 *     $greeter = new Rapier\Grpc\Client('127.0.0.1:50051', timeout: 2.0);
 *     $reply = $greeter->unary('/helloworld.Greeter/SayHello', new HelloRequest(['name' => 'Zoë']), HelloReply::class);
 *
 * Each call in progress has a connection of its own; once a call has ended
 * its connection is kept for the next (up to $maxIdleConnections), so calls
 * made one after another share one.
 */
final class Client
{
    /** grpc's own default for messages received. */
    public const DEFAULT_MAX_RECEIVE_MESSAGE_BYTES = 4 * 1024 * 1024;
    private const VERSION = '0.1.0';

    /** The URL every method's path is appended to. */
    private readonly string $base;
    /** @var array<int, mixed> libcurl options of every call */
    private readonly array $curlOptions;
    /** @var list<array{string, string}> */
    private readonly array $defaultMetadata;
    /** Whether a connection is kept for the next call (see the constructor). */
    private readonly bool $reuseConnections;
    /** @var list<CurlMultiHandle> connections between calls */
    private array $idle = [];

    /**
     * @param string $target "host:port" (h2c: HTTP/2 without TLS, by prior knowledge), "https://host:port"
     *        (HTTP/2 over TLS, ALPN "h2"), or "unix:/path/to/socket"
     * @param float|null $timeout the deadline of each call, in seconds from its start, unless the call gives one;
     *        sent as grpc-timeout. null: none
     * @param array<string, string|list<string>> $metadata sent with every call (keys ending in -bin carry bytes)
     * @param string|null $compression compress request messages with "gzip" or "deflate"; replies are read in any
     *        of identity, deflate and gzip, whatever this says
     * @param int $maxReceiveMessageBytes a reply over it (compressed or not) ends the call with RESOURCE_EXHAUSTED
     * @param string|null $caFile PEM certificates to verify an https server by, instead of the system's
     * @param string|null $certFile PEM client certificate, for servers that ask for one (mutual TLS)
     * @param string|null $keyFile its PEM private key (when not in $certFile)
     * @param float $connectTimeout seconds for a new connection (with TLS, its handshake) to be made
     * @param int $maxIdleConnections connections kept open between calls
     * @throws ValueError for a target, compression or bound it cannot use (the message says which)
     */
    public function __construct(
        string $target,
        private readonly ?float $timeout = null,
        array $metadata = [],
        private readonly ?string $compression = null,
        private readonly int $maxReceiveMessageBytes = self::DEFAULT_MAX_RECEIVE_MESSAGE_BYTES,
        ?string $caFile = null,
        ?string $certFile = null,
        ?string $keyFile = null,
        float $connectTimeout = 5.0,
        private readonly int $maxIdleConnections = 16,
    ) {
        if (!extension_loaded('curl')) {
            throw new LogicException('Rapier\Grpc\Client needs ext/curl (Debian: php8.2-curl)');
        }
        if (!class_exists(Message::class)) {
            throw new LogicException('Rapier\Grpc needs the protobuf runtime (class ' . Message::class . '): '
                . 'Composer\'s google/protobuf, or Debian\'s php-google-protobuf');
        }
        if ($timeout !== null && !($timeout > 0)) {
            throw new ValueError("timeout must be more than 0 seconds, or null for no deadline, got $timeout");
        }
        if ($compression !== null && !in_array($compression, Compression::ENCODINGS, true)) {
            throw new ValueError("compression must be 'gzip', 'deflate', 'identity' or null (none), got '$compression'");
        }
        if ($maxReceiveMessageBytes < 1) {
            throw new ValueError("maxReceiveMessageBytes must be 1 or more, got $maxReceiveMessageBytes");
        }
        if (!($connectTimeout > 0)) {
            throw new ValueError("connectTimeout must be more than 0 seconds, got $connectTimeout");
        }
        if ($maxIdleConnections < 0) {
            throw new ValueError("maxIdleConnections must be 0 or more, got $maxIdleConnections");
        }
        $options = [
            CURLOPT_UPLOAD => true,
            CURLOPT_CUSTOMREQUEST => 'POST',
            CURLOPT_CONNECTTIMEOUT_MS => (int) ceil($connectTimeout * 1000),
            CURLOPT_NOSIGNAL => true,
            // Straight to the server, whatever http_proxy says: gRPC does not go through HTTP/1.1 proxies.
            CURLOPT_PROXY => '',
            CURLOPT_TCP_NODELAY => true,
            CURLOPT_USERAGENT => 'grpc-php-rapier/' . self::VERSION,
        ];
        [$this->base, $tls] = self::base($target, $options);
        $options[CURLOPT_HTTP_VERSION] = $tls ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE;
        // libcurl before 8.0.0 (Debian 12 has 7.88.1) fails every request on a reused h2c connection
        // (curl/curl#10634, error 16): without TLS each call there opens its own.
        $this->reuseConnections = $tls || curl_version()['version_number'] >= 0x080000;
        if (!$this->reuseConnections) {
            $options[CURLOPT_FORBID_REUSE] = true;
        }
        foreach ([CURLOPT_CAINFO => $caFile, CURLOPT_SSLCERT => $certFile, CURLOPT_SSLKEY => $keyFile] as $option => $file) {
            if ($file !== null) {
                if (!$tls) {
                    throw new ValueError("TLS files are for an https:// target, not '$target'");
                }
                if (!is_readable($file)) {
                    throw new ValueError("cannot read '$file'");
                }
                $options[$option] = $file;
            }
        }
        $this->curlOptions = $options;
        $this->defaultMetadata = self::fields($metadata);
    }

    /**
     * A unary call: one request, one reply.
     *
     * @template T of Message
     * @param string $method "/package.Service/Method"
     * @param class-string<T> $replyClass
     * @param array<string, string|list<string>> $metadata sent with this call, after the client's
     * @param float|null $timeout this call's deadline in seconds; null: the client's
     * @return T
     * @throws GrpcException for any status other than OK
     */
    public function unary(string $method, Message $request, string $replyClass, array $metadata = [], ?float $timeout = null): Message
    {
        $call = $this->call($method, $replyClass, $metadata, $timeout);
        $call->write($request);

        return $call->reply();
    }

    /**
     * A server-streaming call: one request, replies read from the call
     * (foreach) as they arrive.
     *
     * @param class-string<Message> $replyClass
     * @param array<string, string|list<string>> $metadata
     */
    public function serverStream(string $method, Message $request, string $replyClass, array $metadata = [], ?float $timeout = null): Call
    {
        $call = $this->call($method, $replyClass, $metadata, $timeout);
        $call->write($request);
        $call->writesDone();

        return $call;
    }

    /**
     * A call of any kind, the requests written by the caller: for client
     * streaming (write() each, then reply()) and bidirectional streaming
     * (write() and read() in any order, writesDone() at the end).
     *
     * @param class-string<Message> $replyClass
     * @param array<string, string|list<string>> $metadata
     * @throws ValueError for a malformed method, a reply class that is no protobuf message, or bad metadata
     */
    public function call(string $method, string $replyClass, array $metadata = [], ?float $timeout = null): Call
    {
        if (preg_match('~^/[A-Za-z_][A-Za-z0-9_.]*/[A-Za-z_][A-Za-z0-9_]*$~D', $method) !== 1) {
            throw new ValueError("invalid method '$method': use '/package.Service/Method', as in '/helloworld.Greeter/SayHello'");
        }
        if (!is_subclass_of($replyClass, Message::class)) {
            throw new ValueError("the reply class must be a protobuf message class (generated by protoc), got '$replyClass'");
        }
        $timeout ??= $this->timeout;
        if ($timeout !== null && !($timeout > 0)) {
            throw new ValueError("timeout must be more than 0 seconds, or null for the client's, got $timeout");
        }
        $encoding = $this->compression ?? Compression::IDENTITY;
        $headers = ['Content-Type: application/grpc', 'TE: trailers', 'Accept:', 'Expect:',
            'grpc-accept-encoding: ' . Compression::ACCEPTED];
        if ($encoding !== Compression::IDENTITY) {
            $headers[] = "grpc-encoding: $encoding";
        }
        if ($timeout !== null) {
            $headers[] = 'grpc-timeout: ' . Timeout::format($timeout);
        }
        foreach ([...$this->defaultMetadata, ...self::fields($metadata)] as [$key, $value]) {
            $headers[] = "$key: $value";
        }
        $easy = curl_init($this->base . $method);
        $options = $this->curlOptions;
        $options[CURLOPT_HTTPHEADER] = $headers;
        if ($timeout !== null) {
            $options[CURLOPT_TIMEOUT_MS] = (int) ceil($timeout * 1000);
        }
        curl_setopt_array($easy, $options);

        return new Call($easy, array_pop($this->idle) ?? curl_multi_init(), $this->keep(...), $method, $replyClass,
            $timeout === null ? null : microtime(true) + $timeout, $encoding, $this->maxReceiveMessageBytes);
    }

    /** Closes the connections kept between calls; calls in progress go on. */
    public function close(): void
    {
        $this->idle = [];
    }

    private function keep(CurlMultiHandle $multi): void
    {
        if ($this->reuseConnections && count($this->idle) < $this->maxIdleConnections) {
            $this->idle[] = $multi;
        }
    }

    /**
     * @param array<int, mixed> $options gains the socket path of a unix: target
     * @return array{string, bool} the base URL, and whether it is TLS
     */
    private static function base(string $target, array &$options): array
    {
        if (str_starts_with($target, 'unix:')) {
            $path = preg_replace('~^unix:(//)?~', '', $target);
            if ($path === '' || $path[0] !== '/') {
                throw new ValueError("invalid target '$target': a socket is named by its absolute path, 'unix:/run/app.sock'");
            }
            $options[CURLOPT_UNIX_SOCKET_PATH] = $path;

            return ['http://localhost', false];
        }
        $scheme = 'http';
        if (preg_match('~^(https?)://(.*)$~Di', $target, $m) === 1) {
            [$scheme, $target] = [strtolower($m[1]), $m[2]];
        }
        if (preg_match('~^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-]+):([0-9]{1,5})$~D', $target, $m) !== 1 || (int) $m[2] > 65535) {
            throw new ValueError("invalid target '$target': use 'host:port', 'https://host:port' or 'unix:/path/to/socket'");
        }

        return ["$scheme://$m[1]:$m[2]", $scheme === 'https'];
    }

    /**
     * @param array<string, string|list<string>> $metadata
     * @return list<array{string, string}>
     * @throws ValueError for a reserved or malformed key, or a text value that is not printable ASCII
     */
    private static function fields(array $metadata): array
    {
        $fields = [];
        foreach ($metadata as $key => $values) {
            foreach ((array) $values as $value) {
                if (!is_string($value)) {
                    throw new ValueError("metadata value of '$key' must be a string, got " . get_debug_type($value));
                }
                $fields[] = Metadata::field((string) $key, $value);
            }
        }

        return $fields;
    }
}
