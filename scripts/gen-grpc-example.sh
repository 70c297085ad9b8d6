#!/usr/bin/env bash
# Regenerates the PHP classes of examples/grpc/helloworld.proto into
# examples/grpc/generated/ with protoc (Debian's protobuf-compiler), for
# the runtime of php-google-protobuf. Run it after editing the .proto.
# With --check, fails when the committed classes differ from protoc's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
example="$root/examples/grpc"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! command -v protoc >/dev/null 2>&1; then
	echo "gen-grpc-example: protoc is missing (scripts/install-deps.sh installs protobuf-compiler)" >&2
	exit 1
fi
protoc --proto_path="$example" --php_out="$work" "$example/helloworld.proto"

if [ "${1:-}" = "--check" ]; then
	if ! diff -r "$work" "$example/generated" >&2; then
		echo "stale: examples/grpc/generated (run scripts/gen-grpc-example.sh)" >&2
		exit 1
	fi
	exit 0
fi
# Replaced whole, so a message removed from the .proto leaves no class behind.
rm -rf "$example/generated"
cp -r "$work" "$example/generated"
chmod -R u+rwX,go+rX "$example/generated"
echo "generated: $(cd "$example/generated" && find . -name '*.php' | sort | tr '\n' ' ')"
