#!/usr/bin/env bash
# Installs the Debian 12 packages Rapier needs to build, test and serve.
# Only missing packages are installed, and apt-get update runs at most once,
# so a machine that already has everything never touches the network.
#
#   scripts/install-deps.sh           build, test and serve
#   scripts/install-deps.sh --bench   also what bench/run.sh measures and uses
#   scripts/install-deps.sh --fuzz    also clang and libFuzzer, for make fuzz
set -euo pipefail

packages=(
	php8.2-cli php8.2-dev php8.2-mysql php8.2-sqlite3 php8.2-redis
	php8.2-mbstring php8.2-xml php8.2-curl phpunit php-parser
	node-llhttp mariadb-server redis-server redis-tools
	build-essential autoconf pkg-config libssl-dev zlib1g-dev libzstd-dev libbrotli-dev libnghttp2-dev valgrind
	# The framework apps of tests/apps/, served by Rapier and by nginx + php-fpm.
	php-laravel-framework php-laravel-lumen-framework php-symfony-framework-bundle
	php-slim php8.2-fpm nginx
	# The PSR-7 bridge's factories, one test run with each (tests/Psr).
	php-nyholm-psr7 php-guzzlehttp-psr7
	# An HTTP client on libcurl, in coroutines (tests/CurlConcurrencyTest.php).
	php-guzzlehttp-guzzle
	postgresql php8.2-pgsql
	# ext/memcached and a memcached server the hook tests start (ext/tests/hook/memcached.inc).
	php8.2-memcached memcached
	# A WebSocket client of another implementation than ours (tests/WebSocketTest.php).
	python3-websockets
	# The HTTPS tests make their certificates with the openssl command (tests/Support/TlsCertificate.php,
	# ext/tests/http/tls.inc) and talk to the server with curl, as the other phpt tests do.
	openssl curl
	# An HTTP/2 client of another implementation than ours (nghttp, h2load: ext/tests/http2).
	nghttp2-client
	# Decoders of the zstd and br content codings apart from ours and curl's (ext/tests/http/http_compression_*).
	zstd brotli
	# gRPC (tests/Grpc): the PHP protobuf runtime Rapier\Grpc uses, protoc for the example's
	# classes (scripts/gen-grpc-example.sh) with the well-known types' .proto files (libprotobuf-dev),
	# gRPC's own client, in Python, to call the server, and gRPC's reflection.proto for its messages;
	# googleapis' google/rpc/*.proto (rich error details), which Debian ships in a Go package.
	php-google-protobuf protobuf-compiler libprotobuf-dev python3-grpcio python3-protobuf grpc-proto
	golang-github-gogo-googleapis-dev
	# A TCP load balancer that sends the PROXY protocol, versions 1 and 2 (ext/tests/http/http_proxy_protocol*).
	haproxy
)

# Only `make bench` needs these, so `make test` stays as light as it was.
bench_packages=(
	php8.2-fpm nginx wrk gnuplot-nox php-laravel-lumen-framework
)
# Only `make fuzz` needs these: the test run replays the corpus with cc.
fuzz_packages=(
	clang-14 libfuzzer-14-dev libclang-rt-14-dev
)
case "${1:-}" in
--bench) packages+=("${bench_packages[@]}") ;;
--fuzz) packages+=("${fuzz_packages[@]}") ;;
esac

missing=()
for pkg in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	if [ "$status" != "install ok installed" ]; then
		missing+=("$pkg")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]}" >&2
	if command -v sudo >/dev/null 2>&1; then
		echo "install-deps: installing them with sudo" >&2
		exec sudo "$0" "$@"
	fi
	echo "install-deps: run as root (or install them yourself)" >&2
	exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# Package scripts must not start the system MariaDB/Redis services: the
# tests run their own throwaway instances on free loopback ports.
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' > "$policy"
	chmod 755 "$policy"
	created_policy=1
fi
cleanup() {
	if [ "$created_policy" = 1 ]; then
		rm -f "$policy"
	fi
}
trap cleanup EXIT

apt-get update -q </dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
