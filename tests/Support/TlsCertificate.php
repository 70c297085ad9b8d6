<?php

declare(strict_types=1);

namespace Rapier\Tests\Support;

use PHPUnit\Framework\SkippedTestError;
use RuntimeException;

/**
 * A self-signed certificate for localhost and 127.0.0.1 and its key, made
 * with the openssl command as an operator would make them, so nothing is
 * shared with the server's own TLS code. The certificate is its own CA: a
 * client given it as its CA file (curl's --cacert, CURLOPT_CAINFO)
 * verifies the server in full, host name included. A client certificate
 * (createClient()) is signed by an authority of its own, the file a server
 * given tls_client_ca_file trusts.
 */
final class TlsCertificate
{
    private const OPENSSL = '/usr/bin/openssl';

    /** $caFile: the certificate that signed this one (for the server's self-signed one, itself). */
    private function __construct(
        public readonly string $certFile,
        public readonly string $keyFile,
        public readonly string $caFile,
    ) {
    }

    /**
     * Writes cert.pem and key.pem into $dir (which the caller removes).
     * P-256 rather than RSA: the key is made in milliseconds.
     *
     * @throws SkippedTestError when openssl is not installed
     */
    public static function create(string $dir): self
    {
        $cert = new self("$dir/cert.pem", "$dir/key.pem", "$dir/cert.pem");
        self::openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
            '-keyout', $cert->keyFile, '-out', $cert->certFile, '-days', '2', '-subj', '/CN=localhost',
            '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1']);

        return $cert;
    }

    /**
     * Writes a client certificate for CN=$commonName (client-$commonName.pem,
     * its key) and the authority that signed it (client-ca.pem, made once).
     */
    public static function createClient(string $dir, string $commonName): self
    {
        $ca = "$dir/client-ca.pem";
        if (!is_file($ca)) {
            self::openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
                '-keyout', "$dir/client-ca.key", '-out', $ca, '-days', '2', '-subj', '/CN=Rapier Test Client CA',
                '-addext', 'basicConstraints=critical,CA:TRUE']);
        }
        $cert = new self("$dir/client-$commonName.pem", "$dir/client-$commonName.key", $ca);
        self::openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
            '-keyout', $cert->keyFile, '-out', "$cert->certFile.csr", '-subj', "/CN=$commonName"]);
        // A serial of its own, so that revoking one client revokes no other.
        self::openssl(['x509', '-req', '-in', "$cert->certFile.csr", '-CA', $ca, '-CAkey', "$dir/client-ca.key",
            '-set_serial', (string) (crc32($commonName) + 1), '-days', '2', '-out', $cert->certFile]);
        unlink("$cert->certFile.csr");

        return $cert;
    }

    /**
     * Writes the client authority's certificate revocation list (client-ca.crl)
     * revoking $revoked, made with `openssl ca` as an operator would.
     *
     * @param list<self> $revoked client certificates of createClient()
     */
    public static function revokeClients(string $dir, array $revoked): string
    {
        $db = "$dir/client-ca.db";
        @mkdir($db);
        file_put_contents("$db/index.txt", '');
        file_put_contents("$db/ca.cnf", "[ca]\ndefault_ca = test\n[test]\ndatabase = $db/index.txt\n"
            . "default_md = sha256\ndefault_crl_days = 2\n");
        $ca = ['ca', '-config', "$db/ca.cnf", '-keyfile', "$dir/client-ca.key", '-cert', "$dir/client-ca.pem"];
        foreach ($revoked as $client) {
            self::openssl([...$ca, '-revoke', $client->certFile]);
        }
        self::openssl([...$ca, '-gencrl', '-out', "$dir/client-ca.crl"]);

        return "$dir/client-ca.crl";
    }

    /** @param list<string> $args */
    private static function openssl(array $args): void
    {
        if (!is_executable(self::OPENSSL)) {
            throw new SkippedTestError(self::OPENSSL . ' is not installed (Debian package openssl)');
        }
        $pipes = [];
        $proc = proc_open([self::OPENSSL, ...$args], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if ($proc === false) {
            throw new RuntimeException('Cannot start openssl');
        }
        // Its output is a few lines: reading one pipe to its end cannot block the other.
        $output = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        $status = proc_close($proc);
        if ($status !== 0) {
            throw new RuntimeException('openssl ' . implode(' ', $args) . " failed with status $status:\n$output");
        }
    }
}
