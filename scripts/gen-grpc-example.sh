#!/usr/bin/env bash
# Regenerates, with protoc (Debian's protobuf-compiler), the PHP classes of
# examples/grpc/helloworld.proto into examples/grpc/generated/, and those
# the tests serve into tests/apps/grpc/generated/: tests/apps/grpc/clock.proto
# and googleapis' google/rpc/error_details.proto (rich error details; Debian
# ships it in golang-github-gogo-googleapis-dev), for the runtime of
# php-google-protobuf. Run it after editing a .proto.
# With --check, fails when the committed classes differ from protoc's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
googleapis=/usr/share/gocode/src/github.com/gogo/googleapis

if ! command -v protoc >/dev/null 2>&1; then
	echo "gen-grpc-example: protoc is missing (scripts/install-deps.sh installs protobuf-compiler)" >&2
	exit 1
fi
if [ ! -f "$googleapis/google/rpc/error_details.proto" ]; then
	echo "gen-grpc-example: $googleapis/google/rpc/error_details.proto is missing" \
		"(scripts/install-deps.sh installs golang-github-gogo-googleapis-dev)" >&2
	exit 1
fi

# Each line: the directory whose generated/ gets the classes, the .proto's import root, the .proto in it.
targets="examples/grpc $root/examples/grpc helloworld.proto
tests/apps/grpc $root/tests/apps/grpc clock.proto
tests/apps/grpc $googleapis google/rpc/error_details.proto"

stale=0
while read -r dir import proto; do
	mkdir -p "$work/$dir"
	# The well-known types' .proto files (google/protobuf/*.proto) come with libprotobuf-dev.
	protoc --proto_path="$import" --proto_path=/usr/include --php_out="$work/$dir" "$import/$proto"
done <<< "$targets"
for dir in $(cut -d' ' -f1 <<< "$targets" | uniq); do
	if [ "${1:-}" = "--check" ]; then
		if ! diff -r "$work/$dir" "$root/$dir/generated" >&2; then
			echo "stale: $dir/generated (run scripts/gen-grpc-example.sh)" >&2
			stale=1
		fi
		continue
	fi
	# Replaced whole, so a message removed from a .proto leaves no class behind.
	rm -rf "$root/$dir/generated"
	cp -r "$work/$dir" "$root/$dir/generated"
	chmod -R u+rwX,go+rX "$root/$dir/generated"
	echo "generated: $dir/generated: $(cd "$root/$dir/generated" && find . -name '*.php' | sort | tr '\n' ' ')"
done
exit $stale
