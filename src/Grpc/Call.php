<?php

declare(strict_types=1);

namespace Rapier\Grpc;

use CurlHandle;
use CurlMultiHandle;
use Exception;
use Generator;
use Google\Protobuf\Internal\Message;
use IteratorAggregate;
use LogicException;
use Rapier\Grpc\Internal\Compression;
use Rapier\Grpc\Internal\MessageFraming;
use Rapier\Grpc\Internal\Metadata;
use Rapier\Grpc\Internal\PercentEncoding;
use Rapier\Grpc\Internal\StatusDetails;
use Throwable;

/**
 * One call made by a Client (docs/grpc.md, "Calling services"): request
 * messages written with write() and ended with writesDone(), replies read
 * with read() (or by iterating the call) as they arrive, in any order the
 * method's kind allows, both at once for a bidirectional stream.
 *
 * Nothing runs in the background: the call moves while write(), read(),
 * reply(), headers(), trailers() or status() waits, and inside a coroutine
 * that wait suspends only the coroutine (libcurl's waits are hooked,
 * docs/hooks.md). A call belongs to one coroutine at a time.
 *
 * A status other than OK is thrown by read() and reply() as a
 * GrpcException (its status, message and, when the server sent rich error
 * details, its details as google.protobuf.Any).
 *
 * @implements IteratorAggregate<int, Message>
 */
final class Call implements IteratorAggregate
{
    /** write() waits while more than this is unsent: the server takes messages at its own pace, and memory stays bounded. */
    private const UNSENT_BYTES = 65536;
    /** The longest single wait in libcurl; the deadline is checked between waits. */
    private const WAIT_SECONDS = 1.0;
    /** grpc's http-grpc-status-mapping.md: the status of a response that is not gRPC's, by its HTTP status. */
    private const HTTP_STATUS = [400 => Status::INTERNAL, 401 => Status::UNAUTHENTICATED, 403 => Status::PERMISSION_DENIED,
        404 => Status::UNIMPLEMENTED, 429 => Status::UNAVAILABLE, 502 => Status::UNAVAILABLE, 503 => Status::UNAVAILABLE,
        504 => Status::UNAVAILABLE];

    private ?CurlHandle $easy;
    private ?CurlMultiHandle $multi;
    /** Framed request bytes; those before $outAt libcurl has taken. */
    private string $out = '';
    private int $outAt = 0;
    private bool $writesDone = false;
    /** Whether libcurl waits for write() (the read callback said pause). */
    private bool $sendPaused = false;
    /** Response body bytes not yet cut into messages. */
    private string $in = '';
    /** @var list<array{int, string}> whole reply messages, [compressed flag, bytes], not yet read */
    private array $replies = [];
    private int $httpStatus = 0;
    private bool $headDone = false;
    /** @var list<array{string, string}> */
    private array $head = [];
    /** @var list<array{string, string}> */
    private array $tail = [];
    private bool $ended = false;
    private ?Status $status = null;
    private ?GrpcException $failure = null;

    /**
     * @internal made by Client
     * @param class-string<Message> $replyClass
     * @param float|null $deadline a Unix time in seconds
     * @param \Closure(CurlMultiHandle): void $release takes the connection back once the call ended cleanly
     */
    public function __construct(
        CurlHandle $easy,
        CurlMultiHandle $multi,
        private readonly \Closure $release,
        private readonly string $method,
        private readonly string $replyClass,
        private readonly ?float $deadline,
        private readonly string $encoding,
        private readonly int $maxReceiveMessageBytes,
    ) {
        $this->easy = $easy;
        $this->multi = $multi;
        curl_setopt_array($easy, [
            CURLOPT_READFUNCTION => $this->take(...),
            CURLOPT_WRITEFUNCTION => $this->receive(...),
            CURLOPT_HEADERFUNCTION => $this->headerLine(...),
        ]);
        curl_multi_add_handle($multi, $easy);
    }

    public function __destruct()
    {
        // A call left before its end is canceled: the server's method sees CANCELLED.
        if (!$this->ended) {
            $this->abort(new GrpcException('the call was dropped before it ended', Status::CANCELLED), false);
        }
    }

    /**
     * Sends a request message. Returns once libcurl has taken all but
     * 64 KiB of what is unsent, so a writer faster than the server waits
     * here.
     *
     * @throws LogicException after writesDone(), or once the call has ended with OK
     * @throws GrpcException when the call has ended with another status
     */
    public function write(Message $message): void
    {
        if ($this->writesDone) {
            throw new LogicException("cannot write to the call to $this->method: writesDone() ended its requests");
        }
        if ($this->ended) {
            throw $this->failure ?? new LogicException("cannot write to the call to $this->method: the server has "
                . 'ended it with OK; read its replies');
        }
        if ($this->outAt > 0) {
            // What libcurl took goes: a long stream that never drains to nothing must not keep it all.
            $this->out = substr($this->out, $this->outAt);
            $this->outAt = 0;
        }
        $this->out .= MessageFraming::encode($message->serializeToString(), $this->encoding);
        $this->resumeSending();
        $this->pump(fn (): bool => strlen($this->out) - $this->outAt <= self::UNSENT_BYTES);
    }

    /** Ends the requests: the server's method sees the end of its stream. Again is nothing. */
    public function writesDone(): void
    {
        if ($this->writesDone) {
            return;
        }
        $this->writesDone = true;
        $this->resumeSending();
    }

    /**
     * The next reply, waiting for it; null once the call has ended with OK
     * and every reply was read.
     *
     * @return Message|null an instance of the reply class the call was made with
     * @throws GrpcException when the call ended with another status (after the replies before it were read)
     */
    public function read(): ?Message
    {
        $this->pump(fn (): bool => $this->replies !== []);
        if ($this->replies !== []) {
            [$compressed, $bytes] = array_shift($this->replies);

            return $this->decode($compressed, $bytes);
        }
        if ($this->failure !== null) {
            throw $this->failure;
        }

        return null;
    }

    /**
     * The one reply of a unary or client-streaming call: ends the
     * requests, reads the reply and the call's end.
     *
     * @throws GrpcException for a status other than OK, and INTERNAL when the server sent no reply or more than one
     */
    public function reply(): Message
    {
        $this->writesDone();
        $reply = $this->read();
        if ($reply === null) {
            throw new GrpcException("the server ended the call to $this->method with OK but no reply", Status::INTERNAL);
        }
        if ($this->read() !== null) {
            $this->cancelWith(new GrpcException("the server sent more than one reply to $this->method", Status::INTERNAL));
        }

        return $reply;
    }

    /** @return Generator<int, Message> the replies, read() until the end */
    public function getIterator(): Generator
    {
        while (($reply = $this->read()) !== null) {
            yield $reply;
        }
    }

    /**
     * The server's header metadata, waiting for the response's head (or
     * the call's end). Keys are lower-case; values of -bin keys are
     * decoded; a key sent more than once comes joined by ", ".
     *
     * @return array<string, string>
     */
    public function headers(): array
    {
        $this->pump(fn (): bool => $this->headDone);

        return self::metadata($this->head);
    }

    /**
     * The server's trailer metadata, waiting for the call's end.
     *
     * @return array<string, string>
     */
    public function trailers(): array
    {
        $this->pump(fn (): bool => false);

        return self::metadata($this->tail);
    }

    /** The call's status, waiting for its end; replies not yet read stay readable. */
    public function status(): Status
    {
        $this->pump(fn (): bool => false);

        return $this->status ?? Status::UNKNOWN;
    }

    /** Ends the call now, if it has not ended: the server's method sees CANCELLED, and so does the client. */
    public function cancel(): void
    {
        if (!$this->ended) {
            $this->abort(new GrpcException("the call to $this->method was cancelled by the client", Status::CANCELLED));
        }
    }

    /**
     * Moves the transfer until $done says so or the call ends. The
     * deadline is the client's to keep too: libcurl's timeout counts only
     * while it is driven.
     *
     * @param callable(): bool $done
     */
    private function pump(callable $done): void
    {
        try {
            while (!$done() && !$this->ended) {
                do {
                    $rc = curl_multi_exec($this->multi, $running);
                } while ($rc === CURLM_CALL_MULTI_PERFORM);
                while (!$this->ended && ($info = curl_multi_info_read($this->multi)) !== false) {
                    if ($info['msg'] === CURLMSG_DONE && $info['handle'] === $this->easy) {
                        $this->end($info['result']);
                    }
                }
                if ($done() || $this->ended) {
                    return;
                }
                $left = $this->deadline === null ? self::WAIT_SECONDS : $this->deadline - microtime(true);
                if ($left <= 0) {
                    $this->abort($this->deadlineExceeded());
                    return;
                }
                curl_multi_select($this->multi, min($left, self::WAIT_SECONDS));
            }
        } catch (Throwable $e) {
            // A canceled coroutine (Rapier\CanceledException) or a failing callback: the call cannot go on.
            if (!$this->ended) {
                $this->abort(new GrpcException("the call to $this->method was interrupted: " . $e->getMessage(),
                    Status::CANCELLED, $e));
            }
            throw $e;
        }
    }

    /** libcurl's read callback: request bytes, a pause while there are none, '' at their end. */
    private function take(CurlHandle $easy, mixed $fd, int $length): string|int
    {
        if ($this->outAt === strlen($this->out)) {
            $this->out = '';
            $this->outAt = 0;
            if ($this->writesDone) {
                return '';
            }
            $this->sendPaused = true;

            return CURL_READFUNC_PAUSE;
        }
        $piece = substr($this->out, $this->outAt, $length);
        $this->outAt += strlen($piece);

        return $piece;
    }

    /** libcurl's write callback: body bytes, cut into whole messages as they complete. */
    private function receive(CurlHandle $easy, string $data): int
    {
        $this->in .= $data;
        $at = 0;
        $have = strlen($this->in);
        while ($have - $at >= MessageFraming::PREFIX_BYTES) {
            $flag = ord($this->in[$at]);
            $size = unpack('N', $this->in, $at + 1)[1];
            if ($flag > 1) {
                $this->failure = new GrpcException("invalid compressed flag $flag in a reply's prefix", Status::INTERNAL);
                return 0;
            }
            if ($size > $this->maxReceiveMessageBytes) {
                // Refused from its prefix, before its bytes are held.
                $this->failure = MessageFraming::tooLarge($size, $this->maxReceiveMessageBytes);
                return 0;
            }
            if ($have - $at - MessageFraming::PREFIX_BYTES < $size) {
                break;
            }
            $this->replies[] = [$flag, substr($this->in, $at + MessageFraming::PREFIX_BYTES, $size)];
            $at += MessageFraming::PREFIX_BYTES + $size;
        }
        $this->in = substr($this->in, $at);

        return strlen($data);
    }

    /** libcurl's header callback: the status line and fields, then, after the body, the trailers. */
    private function headerLine(CurlHandle $easy, string $line): int
    {
        $length = strlen($line);
        $line = rtrim($line, "\r\n");
        if (!$this->headDone && str_starts_with($line, 'HTTP/')) {
            $this->httpStatus = (int) (explode(' ', $line, 3)[1] ?? 0);
            $this->head = [];
        } elseif ($line === '') {
            // An informational head (1xx) is followed by the real one.
            $this->headDone = $this->headDone || $this->httpStatus >= 200;
        } elseif (($colon = strpos($line, ':')) !== false) {
            $field = [strtolower(substr($line, 0, $colon)), trim(substr($line, $colon + 1))];
            if ($this->headDone) {
                $this->tail[] = $field;
            } else {
                $this->head[] = $field;
            }
        }

        return $length;
    }

    private function resumeSending(): void
    {
        if ($this->sendPaused && $this->easy !== null) {
            $this->sendPaused = false;
            curl_pause($this->easy, CURLPAUSE_CONT);
        }
    }

    /** The transfer is over: the call's status, from its trailers, its head, or how the transfer failed. */
    private function end(int $result): void
    {
        curl_multi_remove_handle($this->multi, $this->easy);
        $grpcStatus = $this->statusField('grpc-status');
        if ($this->failure === null) {
            $this->failure = $grpcStatus !== null ? $this->statusFailure($grpcStatus) : $this->transportFailure($result);
        }
        // The connection goes back to the client only from a call that ended as the protocol has it.
        $multi = $result === 0 ? $this->multi : null;
        $this->finish($this->failure?->status ?? Status::OK);
        if ($multi !== null) {
            ($this->release)($multi);
        }
    }

    private function abort(GrpcException $failure, bool $remove = true): void
    {
        $this->failure = $failure;
        if ($remove && $this->multi !== null && $this->easy !== null) {
            // Removed mid-transfer: libcurl resets the stream (RST_STREAM), and the connection is not reused.
            curl_multi_remove_handle($this->multi, $this->easy);
        }
        $this->finish($failure->status);
    }

    private function finish(Status $status): void
    {
        $this->ended = true;
        $this->status = $status;
        // The callbacks hold $this: let go of the handle, and the cycle with it.
        $this->easy = null;
        $this->multi = null;
    }

    /** The status the server sent: null for OK, unless a reply was left cut short. */
    private function statusFailure(string $grpcStatus): ?GrpcException
    {
        $status = preg_match('/^[0-9]{1,2}$/D', $grpcStatus) === 1 ? Status::tryFrom((int) $grpcStatus) : null;
        if ($status === null) {
            return new GrpcException("the server sent an invalid grpc-status '$grpcStatus'", Status::UNKNOWN);
        }
        if ($status === Status::OK) {
            return $this->in === '' ? null : new GrpcException(sprintf('the server ended the call to %s in the middle '
                . 'of a reply (%d bytes of it)', $this->method, strlen($this->in)), Status::INTERNAL);
        }
        $message = PercentEncoding::decode($this->statusField('grpc-message') ?? '');
        $details = $this->statusField(StatusDetails::TRAILER);
        $details = $details === null ? [] : StatusDetails::decode((string) base64_decode($details));

        return new GrpcException($message, $status, details: $details);
    }

    /** No grpc-status: the transfer failed, or what answered is not a gRPC server. */
    private function transportFailure(int $result): GrpcException
    {
        if ($result === CURLE_OPERATION_TIMEDOUT && $this->deadline !== null && microtime(true) >= $this->deadline - 0.001) {
            return $this->deadlineExceeded();
        }
        if ($result !== 0) {
            // grpc reports a connection that failed or broke as UNAVAILABLE: a retry may reach a server.
            return new GrpcException(sprintf('the call to %s failed: curl error %d: %s', $this->method, $result,
                curl_strerror($result)), Status::UNAVAILABLE);
        }
        if ($this->httpStatus !== 200) {
            return new GrpcException("the server answered the call to $this->method with HTTP status $this->httpStatus",
                self::HTTP_STATUS[$this->httpStatus] ?? Status::UNKNOWN);
        }
        $type = (string) self::field($this->head, 'content-type');
        if (!str_starts_with($type, 'application/grpc')) {
            return new GrpcException("the server's answer to $this->method is not gRPC (content-type '$type')", Status::UNKNOWN);
        }

        return new GrpcException("the server ended the call to $this->method without a grpc-status", Status::INTERNAL);
    }

    private function deadlineExceeded(): GrpcException
    {
        return new GrpcException("the deadline of the call to $this->method passed", Status::DEADLINE_EXCEEDED);
    }

    /** A reply's bytes as an instance of the reply class; a reply that is not one ends the call. */
    private function decode(int $compressed, string $bytes): Message
    {
        if ($compressed === 1) {
            $encoding = strtolower((string) self::field($this->head, 'grpc-encoding'));
            if (!in_array($encoding, Compression::ENCODINGS, true) || $encoding === Compression::IDENTITY) {
                $this->cancelWith(new GrpcException("a compressed reply in encoding '$encoding', which the client does not read",
                    Status::INTERNAL));
            }
            try {
                $bytes = Compression::inflate($bytes, $encoding, $this->maxReceiveMessageBytes);
            } catch (GrpcException $e) {
                $this->cancelWith($e);
            }
        }
        $reply = new ($this->replyClass)();
        try {
            $reply->mergeFromString($bytes);
        } catch (Exception $e) {
            $this->cancelWith(new GrpcException("a reply of $this->method is not a $this->replyClass: " . $e->getMessage(),
                Status::INTERNAL, $e));
        }

        return $reply;
    }

    private function cancelWith(GrpcException $failure): never
    {
        if (!$this->ended) {
            $this->abort($failure);
        }
        $this->replies = [];

        throw $failure;
    }

    /**
     * @param list<array{string, string}> $fields
     * @return array<string, string>
     */
    private static function metadata(array $fields): array
    {
        $metadata = [];
        foreach ($fields as [$key, $value]) {
            if (Metadata::isMetadata($key)) {
                $metadata[$key] = isset($metadata[$key]) ? "$metadata[$key], $value" : $value;
            }
        }
        foreach ($metadata as $key => $value) {
            try {
                $metadata[$key] = Metadata::value($key, $value);
            } catch (GrpcException) {
                // A -bin value that is not base64 is left as it came; the call itself is not at fault.
            }
        }

        return $metadata;
    }

    /** A field of the call's status: in the trailers, or in the head of a response that is only trailers (an early error). */
    private function statusField(string $name): ?string
    {
        return self::field($this->tail, $name) ?? self::field($this->head, $name);
    }

    /** @param list<array{string, string}> $fields */
    private static function field(array $fields, string $name): ?string
    {
        foreach ($fields as [$key, $value]) {
            if ($key === $name) {
                return $value;
            }
        }

        return null;
    }
}
