#!/usr/bin/env bash
# Builds Rapier with AddressSanitizer and UndefinedBehaviorSanitizer into
# DIR (make asan uses build/asan): a copy of ext/ configured there, so the
# regular module in ext/modules is never touched, plus preload.so and the
# path of the ASan runtime that scripts/asan/php preloads.
#
# Usage: scripts/asan/build.sh DIR      (prints DIR/rapier.so)
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:?usage: scripts/asan/build.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cc=${CC:-cc}
sanitize="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"

# Only the sources travel, with their times (tar keeps them), so a second
# build in DIR recompiles just what changed.
mkdir -p "$dir/src"
(cd "$root/ext" && find config.m4 rapier.c php_rapier.h binding src llhttp -type f \
	\( -name '*.[ch]' -o -name '*.m4' \)) | tar -C "$root/ext" -cf - -T - | tar -C "$dir/src" -xf -
cd "$dir/src"
if [ ! -f Makefile ] || [ config.m4 -nt Makefile ]; then
	{ out=$(phpize 2>&1) || { echo "$out" >&2; exit 1; }; }
	{ out=$(CC=$cc CFLAGS="-O1 -g $sanitize" LDFLAGS="$sanitize" ./configure 2>&1) \
		|| { echo "$out" >&2; exit 1; }; }
fi
make -s -j"${JOBS:-2}" >/dev/null
cp modules/rapier.so "$dir/rapier.so"

"$cc" -O2 -Wall -Wextra -shared -fPIC -o "$dir/preload.so" "$root/scripts/asan/preload.c" -ldl
"$cc" -print-file-name=libasan.so >"$dir/runtime"
echo "$dir/rapier.so"
