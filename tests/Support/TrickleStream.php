<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

/**
 * A read-only stream (trickle://) that hands out its bytes one per read,
 * as a body arriving byte by byte would, and counts how many it handed
 * out: a reader that waits for more than it needs, or reads ahead, shows.
 *
 *     $stream = TrickleStream::open($bytes);
 *     ... TrickleStream::$handedOut ...
 */
final class TrickleStream
{
    private const SCHEME = 'trickle';

    /** Bytes read from the stream opened last. */
    public static int $handedOut = 0;
    private static string $pending = '';
    private static ?int $pendingFailure = null;

    /** @var resource|null set by PHP for stream wrappers */
    public $context;
    private string $bytes = '';
    private int $position = 0;
    private ?int $failAt = null;

    /**
     * @param int|null $failAt the read at this offset fails (fread() gives false), as a broken connection's would
     * @return resource each fread() gets one byte (PHP's buffer is filled a read at a time, and never ahead)
     */
    public static function open(string $bytes, ?int $failAt = null)
    {
        if (!in_array(self::SCHEME, stream_get_wrappers(), true)) {
            stream_wrapper_register(self::SCHEME, self::class);
        }
        self::$pending = $bytes;
        self::$pendingFailure = $failAt;
        self::$handedOut = 0;
        return fopen(self::SCHEME . '://body', 'rb');
    }

    public function stream_open(string $path, string $mode, int $options, ?string &$openedPath): bool
    {
        $this->bytes = self::$pending;
        $this->failAt = self::$pendingFailure;

        return true;
    }

    public function stream_read(int $count): string|false
    {
        if ($this->position === $this->failAt) {
            return false;
        }
        if ($this->position >= strlen($this->bytes) || $count < 1) {
            return '';
        }
        self::$handedOut++;

        return $this->bytes[$this->position++];
    }

    public function stream_eof(): bool
    {
        return $this->position >= strlen($this->bytes);
    }

    /** @return array<int|string, int> */
    public function stream_stat(): array
    {
        return [];
    }
}
