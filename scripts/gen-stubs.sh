#!/usr/bin/env bash
# Regenerates ext/**/*_arginfo.h from the *.stub.php files with php-src's
# gen_stub.php. gen_stub.php wants nikic/PHP-Parser 4.15.x beside itself and
# would download it; Debian's php-parser package provides it instead.
# With --check, fails when a committed arginfo differs from its stub.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp /usr/lib/php/*/build/gen_stub.php "$work/"
mkdir -p "$work/PHP-Parser-4.15.1"
ln -s /usr/share/php "$work/PHP-Parser-4.15.1/lib"

mapfile -t stubs < <(cd "$root" && find ext -name '*.stub.php' | sort)
if [ "${1:-}" = "--check" ]; then
	cp -r "$root/ext" "$work/ext"
	# gen_stub.php reports a bad stub on stdout: show it when it fails.
	if ! (cd "$work" && php gen_stub.php -f "${stubs[@]}" >"$work/gen_stub.log"); then
		cat "$work/gen_stub.log" >&2
		exit 1
	fi
	status=0
	for stub in "${stubs[@]}"; do
		arginfo="${stub%.stub.php}_arginfo.h"
		if ! cmp -s "$root/$arginfo" "$work/$arginfo"; then
			echo "stale: $arginfo (run scripts/gen-stubs.sh)" >&2
			status=1
		fi
	done
	exit $status
fi
cd "$root" && php "$work/gen_stub.php" -f "${stubs[@]}"
