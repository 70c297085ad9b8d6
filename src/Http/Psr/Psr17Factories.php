<?php

declare(strict_types=1);

namespace Rapier\Http\Psr;

use Psr\Http\Message\ResponseFactoryInterface;
use Psr\Http\Message\ServerRequestFactoryInterface;
use Psr\Http\Message\StreamFactoryInterface;
use Psr\Http\Message\UploadedFileFactoryInterface;
use Psr\Http\Message\UriFactoryInterface;
use Rapier\Exception;

/**
 * The PSR-17 factories the bridge builds PSR-7 messages with: whichever
 * implementation is installed, found through Composer's autoloader or,
 * without one, through the autoloaders Debian's packages ship.
 */
final class Psr17Factories
{
    /**
     * Known implementations, in order of preference: one class implementing
     * every factory interface, and the autoloader of its Debian package.
     */
    private const CANDIDATES = [
        'Nyholm\Psr7\Factory\Psr17Factory' => '/usr/share/php/Nyholm/Psr7/autoload.php',
        'GuzzleHttp\Psr7\HttpFactory' => '/usr/share/php/GuzzleHttp/Psr7/autoload.php',
    ];

    private function __construct(
        public readonly ServerRequestFactoryInterface $serverRequests,
        public readonly StreamFactoryInterface $streams,
        public readonly UploadedFileFactoryInterface $uploadedFiles,
        public readonly UriFactoryInterface $uris,
        public readonly ResponseFactoryInterface $responses,
    ) {
    }

    /**
     * The first installed implementation of CANDIDATES, or only $class when
     * given (one of CANDIDATES' keys, or any class implementing all five
     * factory interfaces).
     *
     * @throws Exception when none is installed
     */
    public static function detect(?string $class = null): self
    {
        $candidates = $class === null ? self::CANDIDATES : [$class => self::CANDIDATES[$class] ?? null];
        foreach ($candidates as $candidate => $autoloader) {
            if (self::available($candidate, $autoloader)) {
                return self::of(new $candidate());
            }
        }
        throw new Exception(sprintf(
            'Cannot bridge PSR-7: no PSR-17 factories found (tried %s); install php-nyholm-psr7 or php-guzzlehttp-psr7',
            implode(', ', array_keys($candidates)),
        ));
    }

    /** One object implementing all five factory interfaces. */
    public static function of(object $factory): self
    {
        return new self($factory, $factory, $factory, $factory, $factory);
    }

    /** The name of the implementation in use, for banners and errors. */
    public function name(): string
    {
        return get_class($this->serverRequests);
    }

    private static function available(string $class, ?string $autoloader): bool
    {
        if (class_exists($class)) {
            return true;
        }
        if ($autoloader === null || !is_file($autoloader)) {
            return false;
        }
        require_once $autoloader;

        return class_exists($class);
    }
}
