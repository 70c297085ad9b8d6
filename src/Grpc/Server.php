<?php

declare(strict_types=1);

namespace Rapier\Grpc;

use Generator;
use Google\Protobuf\Internal\Message;
use Rapier\Adapter\Adapter;
use Rapier\Adapter\RequiresHttp2;
use Rapier\Adapter\Stoppable;
use Rapier\CanceledException;
use Rapier\Coroutine;
use Rapier\Grpc\Internal\Compression;
use Rapier\Grpc\Internal\DeadlineTimer;
use Rapier\Grpc\Internal\HealthService;
use Rapier\Grpc\Internal\MessageFraming;
use Rapier\Grpc\Internal\PercentEncoding;
use Rapier\Grpc\Internal\Reflection;
use Rapier\Grpc\Internal\RpcMethod;
use Rapier\Grpc\Internal\ServiceReflector;
use Rapier\Grpc\Internal\StatusDetails;
use Rapier\Grpc\Internal\Timeout;
use Rapier\Grpc\Internal\WebFormat;
use Rapier\Http\BodyException;
use Rapier\Http\Request;
use Rapier\Http\Response;
use Throwable;
use ValueError;

/**
 * gRPC services over Rapier's HTTP/2 server (docs/grpc.md): unary, server
 * streaming, client streaming and bidirectional streaming calls, each in
 * the request's coroutine, their request messages read as they arrive.
 *
 *     $grpc = (new Rapier\Grpc\Server())->addService('helloworld.Greeter', new Greeter());
 *     return $grpc;                        // as `rapier serve` APP (which sets the two options below)
 *     $http->on('request', $grpc);         // or in a Rapier\Http\Server with 'http2' => true and,
 *                                          // for streams both ways at once, 'request_buffering' => false
 */
final class Server implements Adapter, RequiresHttp2, Stoppable
{
    /** grpc's own default for messages received. */
    public const DEFAULT_MAX_RECEIVE_MESSAGE_BYTES = 4 * 1024 * 1024;
    /** Replies smaller than this go uncompressed: gzip's 18 bytes of framing and the CPU outweigh what it saves. */
    public const DEFAULT_COMPRESS_MIN_BYTES = 1024;
    /** grpc-timeout goes up to 99999999H (11,000 years); Rapier's timers to 9e9 s. Farther than this is no deadline. */
    private const FARTHEST_ENFORCED_DEADLINE = 1e9;
    /** A request body up to this size is read to its end before an answer that does not need it (readSmallBody()). */
    private const SMALL_BODY_BYTES = 65536;

    /** @var array<string, array<string, RpcMethod>> by service name, then method name */
    private array $services = [];
    /** @var array<string, object> by service name, for messages */
    private array $implementations = [];
    private readonly HealthService $healthService;
    /** @var array<string, RpcMethod> Check and Watch */
    private readonly array $healthMethods;
    private readonly ?RpcMethod $reflectionInfo;

    /**
     * @param int $maxReceiveMessageBytes a request message over it (compressed or not) ends the call with RESOURCE_EXHAUSTED
     * @param bool $health serve grpc.health.v1.Health, Check and Watch (SERVING for "" and every service added,
     *        unless setServingStatus() says otherwise)
     * @param list<string> $webOrigins origins whose pages may call the services with gRPC-Web across origins
     *        (CORS), as "https://app.example.com", or ["*"] for any; none by default (same-origin pages only)
     * @param bool $reflection serve gRPC server reflection (grpc.reflection.v1 and v1alpha), so that grpcurl and
     *        the like call the services without their .proto files; off by default: it tells any client the whole API
     * @param string|null $compression compress replies with "gzip" or "deflate" when the client accepts it (its
     *        grpc-accept-encoding); none by default. A method may choose per call: Context::setCompression()
     * @param int $compressMinBytes replies smaller than this are not compressed
     */
    public function __construct(
        private readonly int $maxReceiveMessageBytes = self::DEFAULT_MAX_RECEIVE_MESSAGE_BYTES,
        private readonly bool $health = true,
        private readonly array $webOrigins = [],
        bool $reflection = false,
        private readonly ?string $compression = null,
        private readonly int $compressMinBytes = self::DEFAULT_COMPRESS_MIN_BYTES,
    ) {
        if ($maxReceiveMessageBytes < 1) {
            throw new ValueError("maxReceiveMessageBytes must be 1 or more, got $maxReceiveMessageBytes");
        }
        if ($compression !== null && !in_array($compression, Compression::ENCODINGS, true)) {
            throw new ValueError("compression must be 'gzip', 'deflate', 'identity' or null (none), got '$compression'");
        }
        if ($compressMinBytes < 0) {
            throw new ValueError("compressMinBytes must be 0 or more, got $compressMinBytes");
        }
        foreach ($webOrigins as $origin) {
            if (!is_string($origin) || ($origin !== '*' && preg_match('~^[a-z][a-z0-9+.\-]*://[^/?#\s]+$~Di', $origin) !== 1)) {
                throw new ValueError('webOrigins must list origins as "https://app.example.com" (scheme and host, '
                    . 'a port if not the default, no path) or "*", got ' . var_export($origin, true));
            }
        }
        if (!class_exists(Message::class)) {
            throw new \LogicException('Rapier\Grpc needs the protobuf runtime (class ' . Message::class . '): '
                . 'Composer\'s google/protobuf, or Debian\'s php-google-protobuf');
        }
        $this->healthService = new HealthService(fn (): array => array_keys($this->services));
        $this->healthMethods = $this->healthService->methods();
        $this->reflectionInfo = $reflection ? (new Reflection($this->reflectedServices(...)))->method() : null;
    }

    /**
     * Serves $implementation's RPC methods as the service $fullName
     * ("package.Service", as in the .proto file), each at
     * POST /$fullName/MethodName with the method's name as declared in PHP.
     *
     * @throws InvalidServiceException when the name or a method cannot be served (the message says why)
     * @throws DuplicateServiceException when $fullName is served already
     */
    public function addService(string $fullName, object $implementation): static
    {
        if (preg_match('/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/D', $fullName) !== 1) {
            throw new InvalidServiceException("invalid service name '$fullName': use the full name of the .proto "
                . "file's service, its package and name, as in 'helloworld.Greeter'");
        }
        if (isset($this->services[$fullName])) {
            throw new DuplicateServiceException("service $fullName is already served (by an instance of "
                . get_class($this->implementations[$fullName]) . '): add each service once');
        }
        $this->services[$fullName] = ServiceReflector::methods($fullName, $implementation);
        $this->implementations[$fullName] = $implementation;

        return $this;
    }

    /**
     * Sets what the health service answers for $service ("" for the server
     * as a whole), and tells the clients watching it. Services added are
     * SERVING until set; a name neither added nor set is unknown to it. The
     * status is this worker's: each worker process has its own, so set it
     * from code that runs in every worker (the app file, a timer it
     * starts). Once the worker stops, everything is NOT_SERVING and
     * further changes are ignored.
     *
     * @throws \LogicException when the health service is off (health: false)
     */
    public function setServingStatus(string $service, ServingStatus $status): static
    {
        if (!$this->health) {
            throw new \LogicException('cannot set a serving status: this server was made with health: false, so it '
                . 'serves no health service; make it with health: true (the default)');
        }
        $this->healthService->set($service, $status);

        return $this;
    }

    /** What the health service answers for $service now; null for a name it does not know. */
    public function servingStatus(string $service): ?ServingStatus
    {
        return $this->healthService->status($service);
    }

    /**
     * The worker has begun a graceful stop (`rapier serve` calls it from the
     * HTTP server's workerStopping event; with a Rapier\Http\Server of your
     * own, register it yourself): every status becomes NOT_SERVING, and each
     * open Health/Watch stream says so and ends, so the stop need not wait
     * for them.
     */
    public function stopping(): void
    {
        $this->healthService->stop();
    }

    /** @return list<string> the services added, in order */
    public function services(): array
    {
        return array_keys($this->services);
    }

    public function boot(): void
    {
    }

    public function __invoke(Request $request, Response $response): void
    {
        $this->handle($request, $response);
    }

    public function handle(Request $request, Response $response): void
    {
        $origin = $this->allowedOrigin($request);
        if ($request->method === 'OPTIONS' && $request->header('access-control-request-method') !== null) {
            $this->answerPreflight($request, $response, $origin);
            return;
        }
        if ($origin !== null) {
            self::allowOrigin($response, $origin);
        }
        // Not gRPC at all: plain HTTP answers, as PROTOCOL-HTTP2.md asks.
        if ($request->method !== 'POST') {
            self::readSmallBody($request);
            $response->status(405)->header('allow', 'POST')->header('content-type', 'text/plain')
                ->end("405 Method Not Allowed: gRPC calls are POST requests\n");
            return;
        }
        $contentType = strtolower(trim(explode(';', (string) $request->header('content-type'))[0]));
        $web = WebFormat::of($contentType);
        if ($web === null && $contentType !== 'application/grpc' && !str_starts_with($contentType, 'application/grpc+')) {
            self::readSmallBody($request);
            $response->status(415)->header('content-type', 'text/plain')
                ->end("415 Unsupported Media Type: gRPC requests are application/grpc (or application/grpc-web)\n");
            return;
        }
        $response->header('content-type', $web?->contentType
            ?? ($contentType === 'application/grpc+proto' ? $contentType : 'application/grpc'));
        $response->header('grpc-accept-encoding', Compression::ACCEPTED);

        $context = null;
        $reply = '';
        $details = [];
        try {
            $web?->checkCodec();
            if ($web === null && $contentType !== 'application/grpc' && $contentType !== 'application/grpc+proto') {
                throw new GrpcException("unsupported content-type $contentType: this server speaks protobuf "
                    . '(application/grpc+proto)', Status::UNIMPLEMENTED);
            }
            $method = $this->route($request->path);
            $encoding = $this->requestEncoding($request);
            $timeout = $request->header('grpc-timeout');
            $deadline = $timeout === null ? null : microtime(true) + Timeout::parse($timeout);
            $context = new Context($request, $response, $request->path, $deadline, $this->compression ?? Compression::IDENTITY);
            $reply = $this->call($method, $context, $request, $response, $encoding, $web);
            $status = Status::OK;
            $message = '';
        } catch (GrpcException $e) {
            $status = $e->status;
            $message = $e->getMessage();
            $details = $e->details;
        } catch (CanceledException) {
            // The server stopping cancels its requests; nothing went wrong in the application.
            $status = Status::CANCELLED;
            $message = 'the call was canceled';
        } catch (Throwable $e) {
            error_log(sprintf('gRPC %s failed: %s', $request->path, (string) $e));
            // Never the exception's own message: it may hold internals (paths, queries, credentials).
            $status = Status::UNKNOWN;
            $message = 'Internal error';
        }
        $this->finish($request, $response, $context, $status, $message, $details, $reply, $web);
    }

    /**
     * Runs the method under the call's deadline. Returns the unary reply's
     * frame, to go out with the status; streamed replies are written here.
     */
    private function call(
        RpcMethod $method,
        Context $context,
        Request $request,
        Response $response,
        string $encoding,
        ?WebFormat $web,
    ): string {
        $remaining = $context->timeRemaining();
        if ($remaining !== null && $remaining <= 0.0) {
            throw new GrpcException('deadline exceeded before the call started', Status::DEADLINE_EXCEEDED);
        }
        $coroutine = Coroutine::id();
        $deadline = $remaining !== null && $remaining < self::FARTHEST_ENFORCED_DEADLINE && $coroutine !== -1
            ? new DeadlineTimer($remaining, $coroutine) : null;
        // A client that cancels, resets the stream or leaves ends the call as its deadline does: the method's wait
        // throws CanceledException (gRPC's context cancellation). Not once the method is done: the status goes out.
        $running = $coroutine !== -1;
        if ($running) {
            $response->onAbort(static function () use (&$running, $coroutine): void {
                if ($running) {
                    Coroutine::cancel($coroutine);
                }
            });
        }
        try {
            $reply = $this->run($method, $context, $request, $response, $encoding, $web);
        } catch (Throwable $e) {
            if ($deadline?->expired()) {
                throw new GrpcException('deadline exceeded', Status::DEADLINE_EXCEEDED);
            }
            throw $e;
        } finally {
            $running = false;
            $deadline?->stop();
        }
        if ($deadline?->expired()) {
            // The handler caught its CanceledException, or its wait had just been answered: too late all the same.
            throw new GrpcException('deadline exceeded', Status::DEADLINE_EXCEEDED);
        }

        return $reply;
    }

    private function run(
        RpcMethod $method,
        Context $context,
        Request $request,
        Response $response,
        string $encoding,
        ?WebFormat $web,
    ): string {
        if ($web === null || !$web->text) {
            // gRPC bounds each message (maxReceiveMessageBytes), not the stream: a long stream may carry any total.
            // (gRPC-Web's -text is read whole, under max_body_size.)
            $request->setMaxBodySize(null);
        }
        if ($method->clientStreaming) {
            // A client stream may be quiet for as long as the client likes (a chat): the deadline bounds the call.
            // Set before the method runs, which may narrow it: $context->request()->setBodyTimeout(...).
            $request->setBodyTimeout(null);
        }
        $messages = $this->requestMessages($request, $encoding, $web);
        if ($method->clientStreaming) {
            // Read and decoded as the method iterates: a both-ways method answers one message before the next arrives.
            $input = (static function () use ($messages, $method): Generator {
                foreach ($messages as $bytes) {
                    yield ($method->decode)($bytes);
                }
            })();
        } else {
            $input = ($method->decode)(self::onlyMessage($messages));
        }
        $result = ($method->invoke)($input, $context);
        if (!$method->serverStreaming) {
            return $this->frame(($method->encode)($result), $context);
        }
        foreach ($result as $reply) {
            $frame = $this->frame(($method->encode)($reply), $context);
            if (!$context->headersSent()) {
                $this->sendHeaders($response, $context);
            }
            // Written now, so each reply reaches the client as it is made; false: the client is gone.
            if (!$response->write($web?->wrap($frame) ?? $frame)) {
                break;
            }
        }

        return '';
    }

    /**
     * The request's messages, read from the body while it arrives (with the
     * HTTP server's request_buffering off; from the whole body otherwise).
     * A body whose rest will not come ends the call with the status that
     * fits, thrown where the method reads its next message.
     *
     * @return Generator<int, string>
     */
    private function requestMessages(Request $request, string $encoding, ?WebFormat $web): Generator
    {
        try {
            $body = $web?->body($request) ?? $request->bodyStream();
            yield from MessageFraming::read($body, $encoding, $this->maxReceiveMessageBytes);
        } catch (BodyException $e) {
            // The server's own words (a limit, a reset, a stall), nothing of the application's.
            throw new GrpcException(lcfirst($e->getMessage()), match ($e->getCode()) {
                413 => Status::RESOURCE_EXHAUSTED,
                400 => Status::INTERNAL,
                // 499: the client reset the stream or left; 408: no byte came for the body's timeout (unary calls:
                // body_timeout, read_timeout without it; client streams: the one the method set, if it did).
                default => Status::CANCELLED,
            }, $e);
        }
    }

    /**
     * Reads the rest of a request body of a small, known length before it is
     * answered. A plain HTTP client sends one (gRPC clients send no
     * Content-Length), and some (curl 7.88) take an answer that arrives
     * while they still send, trailers and all, as a transfer that never
     * ends.
     */
    private static function readSmallBody(Request $request): void
    {
        $size = $request->bodySize();
        if ($size < 1 || $size > self::SMALL_BODY_BYTES) {
            return;
        }
        try {
            $stream = $request->bodyStream();
            do {
                $piece = fread($stream, self::SMALL_BODY_BYTES);
            } while ($piece !== false && $piece !== '');
        } catch (\Rapier\Exception) {
            // The client left or stalled (BodyException), the server is stopping (CanceledException): answer if it can.
        }
    }

    /**
     * Ends the call: header metadata not sent yet, the last reply, then the
     * status in trailers.
     *
     * @param list<\Google\Protobuf\Internal\Message> $details the error's, for grpc-status-details-bin
     */
    private function finish(
        Request $request,
        Response $response,
        ?Context $context,
        Status $status,
        string $message,
        array $details,
        string $reply,
        ?WebFormat $web,
    ): void {
        if (!$response->isWritable()) {
            return;
        }
        if ($status !== Status::OK) {
            // An error may come before the body was read (a call that succeeded read it to its end).
            self::readSmallBody($request);
            if (!$response->isWritable()) {
                return;
            }
        }
        if ($context === null) {
            $this->exposeHeaders($request, $response, []);
        } elseif (!$context->headersSent()) {
            $this->sendHeaders($response, $context);
        }
        $trailers = $context?->trailers() ?? [];
        if ($details !== []) {
            // -bin: base64, unpadded, as the other binary metadata.
            $trailers[] = [StatusDetails::TRAILER, rtrim(base64_encode(StatusDetails::encode($status, $message, $details)), '=')];
        }
        if ($web !== null) {
            // The status goes in the body's last frame: browsers cannot read HTTP trailers.
            $trailer = $web->trailerFrame($status, $message, $trailers);
            $response->end(($status === Status::OK && $reply !== '' ? $web->wrap($reply) : '') . $web->wrap($trailer));
            return;
        }
        $response->trailer('grpc-status', (string) $status->value);
        if ($message !== '') {
            $response->trailer('grpc-message', PercentEncoding::encode($message));
        }
        foreach ($trailers as [$key, $value]) {
            $response->trailer($key, $value);
        }
        $response->end($status === Status::OK ? $reply : '');
    }

    /**
     * The request's Origin when webOrigins lists it, "*" when it lists only
     * "*" for it (any page, without the user's credentials), else null.
     */
    private function allowedOrigin(Request $request): ?string
    {
        $origin = $request->header('origin');
        if ($origin === null || $this->webOrigins === []) {
            return null;
        }
        foreach ($this->webOrigins as $allowed) {
            if (strcasecmp($allowed, $origin) === 0) {
                return $origin;
            }
        }

        return in_array('*', $this->webOrigins, true) ? '*' : null;
    }

    /** A listed origin may call with the user's cookies and Authorization; "*" (any page) may not. */
    private static function allowOrigin(Response $response, string $origin): Response
    {
        $response->header('access-control-allow-origin', $origin);
        if ($origin !== '*') {
            $response->header('vary', 'Origin')->header('access-control-allow-credentials', 'true');
        }

        return $response;
    }

    /** A browser asking whether its page may call (CORS preflight): yes for webOrigins, with what it asked for. */
    private function answerPreflight(Request $request, Response $response, ?string $origin): void
    {
        self::readSmallBody($request);
        if ($origin === null) {
            $response->status(403)->header('content-type', 'text/plain')
                ->end("403 Forbidden: this origin may not call these gRPC services (Rapier\\Grpc\\Server's webOrigins)\n");
            return;
        }
        self::allowOrigin($response->status(204), $origin)
            ->header('access-control-allow-methods', 'POST, OPTIONS')
            ->header('access-control-allow-headers', (string) ($request->header('access-control-request-headers')
                ?? 'content-type, x-grpc-web, x-user-agent, grpc-timeout'))
            ->header('access-control-max-age', '86400')
            ->end();
    }

    /** A reply's frame, compressed as the call's grpc-encoding says if it is large enough to gain by it. */
    private function frame(string $reply, Context $context): string
    {
        return MessageFraming::encode($reply, strlen($reply) >= $this->compressMinBytes ? $context->compression()
            : Compression::IDENTITY);
    }

    private function sendHeaders(Response $response, Context $context): void
    {
        $encoding = $context->compression();
        if ($encoding !== Compression::IDENTITY) {
            $response->header('grpc-encoding', $encoding);
        }
        $names = [];
        foreach ($context->takeHeaders() as [$key, $value]) {
            $response->header($key, $value);
            $names[$key] = true;
        }
        $this->exposeHeaders($context->request(), $response, array_keys($names));
    }

    /**
     * A page's code reads only the response headers CORS exposes to it:
     * gRPC's own, and the header metadata the method set, which gRPC-Web
     * clients hand to their callbacks (grpc-web's 'metadata' event).
     *
     * @param list<string> $names
     */
    private function exposeHeaders(Request $request, Response $response, array $names): void
    {
        if ($this->allowedOrigin($request) !== null) {
            $response->header('access-control-expose-headers', implode(', ', ['grpc-status', 'grpc-message', ...$names]));
        }
    }

    /** @param Generator<int, string> $messages */
    private static function onlyMessage(Generator $messages): string
    {
        if (!$messages->valid()) {
            throw new GrpcException('the request holds no message; a unary call takes exactly one', Status::INTERNAL);
        }
        $message = $messages->current();
        $messages->next();
        if ($messages->valid()) {
            throw new GrpcException('the request holds more than one message; a unary call takes exactly one', Status::INTERNAL);
        }

        return $message;
    }

    /** @throws GrpcException UNIMPLEMENTED for an unknown service or method */
    private function route(string $path): RpcMethod
    {
        $slash = strrpos($path, '/');
        $service = $slash === false ? '' : substr($path, 1, $slash - 1);
        $name = $slash === false ? '' : substr($path, $slash + 1);
        if (isset($this->services[$service])) {
            return $this->services[$service][$name]
                ?? throw new GrpcException("unknown method $name for service $service ($path)", Status::UNIMPLEMENTED);
        }
        if ($this->health && $service === HealthService::SERVICE) {
            return $this->healthMethods[$name]
                ?? throw new GrpcException("unknown method $name for service $service ($path)", Status::UNIMPLEMENTED);
        }
        if ($this->reflectionInfo !== null && in_array($service, Reflection::SERVICES, true)) {
            return $name === Reflection::METHOD ? $this->reflectionInfo
                : throw new GrpcException("unknown method $name for service $service ($path)", Status::UNIMPLEMENTED);
        }
        throw new GrpcException("unknown service $service ($path)", Status::UNIMPLEMENTED);
    }

    /**
     * What reflection lists: the services added and the health service
     * if it is the server's own, each with the message classes it names.
     *
     * @return array<string, list<class-string>>
     */
    private function reflectedServices(): array
    {
        $services = [];
        foreach ($this->services as $name => $methods) {
            $classes = [];
            foreach ($methods as $method) {
                array_push($classes, ...$method->messageClasses);
            }
            $services[$name] = array_values(array_unique($classes));
        }
        if ($this->health && !isset($services[HealthService::SERVICE])) {
            $services[HealthService::SERVICE] = [];
        }

        return $services;
    }

    /** @throws GrpcException UNIMPLEMENTED for a grpc-encoding this server cannot read */
    private function requestEncoding(Request $request): string
    {
        $encoding = strtolower(trim((string) $request->header('grpc-encoding')));
        if ($encoding === '') {
            return Compression::IDENTITY;
        }
        if (in_array($encoding, Compression::ENCODINGS, true)) {
            return $encoding;
        }
        // The response's grpc-accept-encoding tells the client what to use instead.
        throw new GrpcException("grpc-encoding $encoding is not supported (supported: " . Compression::ACCEPTED . ')',
            Status::UNIMPLEMENTED);
    }
}
