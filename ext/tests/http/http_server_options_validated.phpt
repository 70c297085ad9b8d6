--TEST--
HTTP: Server validates its options, events and state (ValueError for bad values, Rapier\Exception for wrong state)
--EXTENSIONS--
rapier
--FILE--
<?php
$try = function (callable $fn) {
    try {
        $fn();
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
};
foreach ([['nope' => 1], [5 => 1], ['workers' => -1], ['workers' => '2'], ['read_timeout' => 0], ['read_timeout' => NAN],
    ['read_timeout' => INF],     ['keepalive_timeout' => 0.25], ['gzip' => 1], ['gzip_level' => 10],
    ['compression' => 'zstd'], ['compression' => ['zstd', 'deflate']], ['compression' => ['ZSTD']], ['compression' => ['x-gzip']],
    ['compression' => [1]], ['compression' => ['br', 'gzip', 'br']], ['compression' => ['b' => 'br']], ['compression' => []],
    ['compression' => ['gzip', 'br']], ['zstd_level' => 0], ['zstd_level' => 20], ['zstd_level' => 19], ['brotli_level' => -1],
    ['brotli_level' => 12], ['brotli_level' => 0], ['compression_min_length' => -1], ['gzip_min_length' => 0], ['static_precompressed' => 'yes'], ['static_precompressed' => true],
    ['static_compress_max_size' => -1], ['static_compress_max_size' => (1 << 30) + 1], ['static_compress_max_size' => 0],
    ['static_compress_cache' => -1], ['static_compress_cache' => '16M'], ['static_compress_cache' => 0],
    ['document_root' => ''], ['max_header_size' => 100],
    ['max_header_count' => 0], ['max_body_size' => -1], ['max_body_discard' => -1], ['max_body_discard' => '1k'],
    ['max_body_discard' => 0], ['concurrency' => 1], ['server_name' => 'rapier-test'],
    ['queue_timeout' => 0.5], ['concurrency' => 4, 'queue_timeout' => 0.5], ['latency_target' => 0.1],
    ['concurrency' => 1, 'latency_target' => 0.1], ['concurrency' => 4, 'latency_target' => 0],
    ['concurrency' => 4, 'latency_target' => 0.1]] as $o) {
    echo key($o), ' => ', var_export(current($o), true), ': ';
    $try(fn() => new Rapier\Http\Server('127.0.0.1', 8080, $o));
}
$try(fn() => new Rapier\Http\Server('127.0.0.1', 65536));
$s = new Rapier\Http\Server('127.0.0.1', 8080, ['workers' => 0]);
$try(fn() => $s->on('connect', fn() => null));
$try(fn() => $s->start());
var_dump($s->workerId());
$taken = stream_socket_server('tcp://127.0.0.1:0');
$port = (int) substr(strrchr(stream_socket_get_name($taken, false), ':'), 1);
$s = new Rapier\Http\Server('127.0.0.1', $port, ['workers' => 0]);
$s->on('request', fn($req, $res) => null);
$try(fn() => $s->start());
$s = new Rapier\Http\Server('127.0.0.1', 0, ['workers' => 0, 'document_root' => '/nonexistent/dir']);
$s->on('request', fn($req, $res) => null);
$try(fn() => $s->start());
$try(fn() => Rapier\run(function () {
    $s = new Rapier\Http\Server('127.0.0.1', 0, ['workers' => 0]);
    $s->on('request', fn($req, $res) => null);
    $s->start();
}));
?>
--EXPECTF--
nope => 1: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) contains an unknown option "nope" (see docs/http-server.md)
5 => 1: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) contains an unknown option "(integer key)" (see docs/http-server.md)
workers => -1: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "workers" must be an integer between 0 and 1024
workers => '2': ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "workers" must be an integer between 0 and 1024
read_timeout => 0: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "read_timeout" must be a number of seconds greater than 0 and at most 9e9
read_timeout => NAN: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "read_timeout" must be a number of seconds greater than 0 and at most 9e9
read_timeout => INF: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "read_timeout" must be a number of seconds greater than 0 and at most 9e9
keepalive_timeout => 0.25: no error
gzip => 1: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "gzip" must be a bool
gzip_level => 10: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "gzip_level" must be an integer between 1 and 9
compression => 'zstd': ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "compression" must be a list of codings, the most preferred first, of "zstd", "br" and "gzip" ([] for none)
compression => array (
  0 => 'zstd',
  1 => 'deflate',
): ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "compression" may list only "zstd", "br" and "gzip"
compression => array (
  0 => 'ZSTD',
): ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "compression" may list only "zstd", "br" and "gzip"
compression => array (
  0 => 'x-gzip',
): ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "compression" may list only "zstd", "br" and "gzip"
compression => array (
  0 => 1,
): ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "compression" may list only "zstd", "br" and "gzip"
compression => array (
  0 => 'br',
  1 => 'gzip',
  2 => 'br',
): ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "compression" lists "br" twice
compression => array (
  'b' => 'br',
): ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "compression" must be a list of codings, the most preferred first, of "zstd", "br" and "gzip" ([] for none)
compression => array (
): no error
compression => array (
  0 => 'gzip',
  1 => 'br',
): no error
zstd_level => 0: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "zstd_level" must be an integer between 1 and 19
zstd_level => 20: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "zstd_level" must be an integer between 1 and 19
zstd_level => 19: no error
brotli_level => -1: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "brotli_level" must be an integer between 0 and 11
brotli_level => 12: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "brotli_level" must be an integer between 0 and 11
brotli_level => 0: no error
compression_min_length => -1: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "compression_min_length" must be an integer between 0 and 9223372036854775807
gzip_min_length => 0: no error
static_precompressed => 'yes': ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "static_precompressed" must be a bool
static_precompressed => true: no error
static_compress_max_size => -1: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "static_compress_max_size" must be an integer between 0 and 1073741824
static_compress_max_size => 1073741825: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "static_compress_max_size" must be an integer between 0 and 1073741824
static_compress_max_size => 0: no error
static_compress_cache => -1: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "static_compress_cache" must be an integer between 0 and %d
static_compress_cache => '16M': ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "static_compress_cache" must be an integer between 0 and %d
static_compress_cache => 0: no error
document_root => '': ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "document_root" must be a non-empty string
max_header_size => 100: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "max_header_size" must be an integer between 256 and 1048576
max_header_count => 0: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "max_header_count" must be an integer between 1 and 10000
max_body_size => -1: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "max_body_size" must be an integer between 0 and %d
max_body_discard => -1: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "max_body_discard" must be an integer between 0 and %d
max_body_discard => '1k': ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "max_body_discard" must be an integer between 0 and %d
max_body_discard => 0: no error
concurrency => 1: no error
server_name => 'rapier-test': no error
queue_timeout => 0.5: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "queue_timeout" needs "concurrency" above 0: without a limit on concurrent handlers no request waits for one
concurrency => 4: no error
latency_target => 0.1: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "latency_target" needs "concurrency" above 1: it adapts the limit on concurrent handlers between 1 and "concurrency"
concurrency => 1: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "latency_target" needs "concurrency" above 1: it adapts the limit on concurrent handlers between 1 and "concurrency"
concurrency => 4: ValueError: Rapier\Http\Server::__construct(): Argument #3 ($options) option "latency_target" must be a number of seconds greater than 0 and at most 9e9
concurrency => 4: no error
ValueError: Rapier\Http\Server::__construct(): Argument #2 ($port) must be between 0 and 65535
ValueError: Rapier\Http\Server::on(): Argument #1 ($event) must be one of "request", "workerStart", "workerStopping", "workerStop", "task" or "message"
Rapier\Exception: Cannot start the server without a request handler: call $server->on('request', fn) first
int(-1)
Rapier\Exception: Cannot listen on 127.0.0.1:%d: Address already in use
Rapier\Exception: Cannot serve document_root /nonexistent/dir: No such file or directory
Rapier\Exception: Cannot start the server inside Rapier\run()
