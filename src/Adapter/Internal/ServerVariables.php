<?php

declare(strict_types=1);

namespace Rapier\Adapter\Internal;

use Rapier\Http\Request;

/**
 * The $_SERVER a request would have under nginx and php-fpm with a front
 * controller (`try_files $uri /index.php?$query_string`).
 *
 * It starts from the worker's own environment, as php-fpm's $_SERVER holds
 * the environment of the pool (Laravel's env() and Dotenv read it there),
 * minus what only a command line has (argv, the CLI script's paths). On top
 * come the request's variables from Request::server() (HTTPS and
 * REQUEST_SCHEME among them, as nginx's fastcgi_params give), with the front
 * controller's SCRIPT_NAME and PHP_SELF, SERVER_NAME from the Host header,
 * and without PATH_INFO, which nginx does not pass to a front controller:
 * a framework that saw PHP_SELF "/index.php" and PATH_INFO "/users" would
 * take "/index.php" for its base URL.
 *
 * @internal
 */
final class ServerVariables
{
    /** $_SERVER entries that describe the CLI script, not the request. */
    private const CLI_ONLY = [
        'argv', 'argc', 'PHP_SELF', 'SCRIPT_NAME', 'SCRIPT_FILENAME', 'PATH_TRANSLATED',
        'DOCUMENT_ROOT', 'REQUEST_TIME', 'REQUEST_TIME_FLOAT', 'PATH_INFO',
    ];

    /**
     * $_SERVER entries that only the request's connection may set: an HTTPS
     * left in the worker's environment would make every plain HTTP request
     * look secure to the framework, an SSL_CLIENT_S_DN would give every
     * request a client identity it never proved, and so would a
     * PROXY_PROTOCOL_SSL_CLIENT_VERIFY (the PROXY header's). Other SSL_*
     * names (OpenSSL's SSL_CERT_FILE) are the environment's.
     */
    private const CONNECTION_ONLY = ['HTTPS', 'REQUEST_SCHEME', 'SSL_PROTOCOL', 'SSL_CIPHER'];
    private const CONNECTION_ONLY_PREFIXES = ['SSL_CLIENT_', 'PROXY_PROTOCOL_'];

    /** @var array<string, mixed> */
    private array $environment;

    /**
     * @param array<string, mixed> $environment the worker's $_SERVER at boot
     * @param string|null $frontController the app's public/index.php, when it has one
     */
    public function __construct(array $environment, private readonly ?string $frontController = null)
    {
        foreach ([...self::CLI_ONLY, ...self::CONNECTION_ONLY] as $name) {
            unset($environment[$name]);
        }
        $this->environment = array_filter($environment, static function (string|int $name): bool {
            foreach (self::CONNECTION_ONLY_PREFIXES as $prefix) {
                if (str_starts_with((string) $name, $prefix)) {
                    return false;
                }
            }

            return true;
        }, ARRAY_FILTER_USE_KEY);
    }

    /** @return array<string, mixed> */
    public function build(Request $request): array
    {
        $server = $request->server() + $this->environment;
        unset($server['PATH_INFO']);
        $script = '/' . ($this->frontController === null ? 'index.php' : basename($this->frontController));
        $server['SCRIPT_NAME'] = $script;
        $server['PHP_SELF'] = $script;
        if ($this->frontController !== null) {
            $server['SCRIPT_FILENAME'] = $this->frontController;
            $server['DOCUMENT_ROOT'] = dirname($this->frontController);
        }
        $server['SERVER_NAME'] = self::hostName($request->headers['host'] ?? '');

        return $server;
    }

    /** The Host header without its port ("[::1]:8080" gives "[::1]"). */
    private static function hostName(string $host): string
    {
        $colon = strrpos($host, ':');
        if ($colon !== false && !str_ends_with($host, ']')) {
            $host = substr($host, 0, $colon);
        }

        return $host === '' ? 'localhost' : $host;
    }
}
