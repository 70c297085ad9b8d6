<?php

declare(strict_types=1);

namespace Rapier\Tests\Adapter;

use CURLFile;
use CurlHandle;
use Rapier\Tests\Support\TlsCertificate;
use RuntimeException;

/**
 * A browser-like client of one test app: libcurl with a cookie jar of its
 * own (two clients are two visitors), no redirect following, every header
 * line kept (Set-Cookie is repeated).
 */
final class AppClient
{
    private const TIMEOUT_SECONDS = 30;

    private readonly CurlHandle $curl;

    /**
     * $caFile: for an https:// $baseUrl, the CA certificate to verify the
     * server with (curl's --cacert); $clientCertificate: the certificate
     * this client presents (curl's --cert and --key).
     */
    public function __construct(
        private readonly string $baseUrl,
        ?string $caFile = null,
        ?TlsCertificate $clientCertificate = null,
    ) {
        $this->curl = curl_init();
        // An empty cookie file turns on libcurl's in-memory cookie engine.
        curl_setopt($this->curl, CURLOPT_COOKIEFILE, '');
        if ($caFile !== null) {
            curl_setopt($this->curl, CURLOPT_CAINFO, $caFile);
        }
        if ($clientCertificate !== null) {
            curl_setopt($this->curl, CURLOPT_SSLCERT, $clientCertificate->certFile);
            curl_setopt($this->curl, CURLOPT_SSLKEY, $clientCertificate->keyFile);
        }
    }

    /** @param array<string, string> $headers */
    public function get(string $target, array $headers = []): AppResponse
    {
        return $this->request('GET', $target, $headers);
    }

    /**
     * $body is sent as is (a string), or as multipart/form-data (an array,
     * whose CURLFile values are uploads).
     *
     * @param string|array<string, string|CURLFile> $body
     * @param array<string, string> $headers
     */
    public function request(string $method, string $target, array $headers = [], string|array $body = ''): AppResponse
    {
        $lines = [];
        foreach ($headers as $name => $value) {
            $lines[] = "$name: $value";
        }
        $head = [];
        curl_setopt_array($this->curl, [
            CURLOPT_URL => $this->baseUrl . $target,
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_TIMEOUT => self::TIMEOUT_SECONDS,
            CURLOPT_HTTPGET => $method === 'GET',
            CURLOPT_HEADERFUNCTION => static function ($curl, string $line) use (&$head): int {
                $head[] = $line;

                return strlen($line);
            },
        ]);
        if ($method !== 'GET') {
            curl_setopt($this->curl, CURLOPT_POSTFIELDS, $body);
        }
        $content = curl_exec($this->curl);
        if (!is_string($content)) {
            throw new RuntimeException("$method $target failed: " . curl_error($this->curl));
        }

        return AppResponse::fromCurl((int) curl_getinfo($this->curl, CURLINFO_RESPONSE_CODE), $head, $content);
    }
}
