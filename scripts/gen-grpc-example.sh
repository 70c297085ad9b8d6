#!/usr/bin/env bash
# Regenerates, with protoc (Debian's protobuf-compiler), the PHP classes of
# examples/grpc/helloworld.proto into examples/grpc/generated/ and of the
# tests' tests/apps/grpc/clock.proto into tests/apps/grpc/generated/, for
# the runtime of php-google-protobuf. Run it after editing a .proto.
# With --check, fails when the committed classes differ from protoc's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! command -v protoc >/dev/null 2>&1; then
	echo "gen-grpc-example: protoc is missing (scripts/install-deps.sh installs protobuf-compiler)" >&2
	exit 1
fi

stale=0
for proto in examples/grpc/helloworld.proto tests/apps/grpc/clock.proto; do
	dir=$(dirname "$proto")
	out="$work/$dir"
	mkdir -p "$out"
	# The well-known types' .proto files (google/protobuf/*.proto) come with libprotobuf-dev.
	protoc --proto_path="$root/$dir" --proto_path=/usr/include --php_out="$out" "$root/$proto"
	if [ "${1:-}" = "--check" ]; then
		if ! diff -r "$out" "$root/$dir/generated" >&2; then
			echo "stale: $dir/generated (run scripts/gen-grpc-example.sh)" >&2
			stale=1
		fi
		continue
	fi
	# Replaced whole, so a message removed from the .proto leaves no class behind.
	rm -rf "$root/$dir/generated"
	cp -r "$out" "$root/$dir/generated"
	chmod -R u+rwX,go+rX "$root/$dir/generated"
	echo "generated: $dir/generated: $(cd "$root/$dir/generated" && find . -name '*.php' | sort | tr '\n' ' ')"
done
exit $stale
