#!/usr/bin/env bash
# Prints the path of psr.so, the PSR interfaces extension (Debian's
# php8.2-psr), unpacked but never installed: the package conflicts with
# Debian's Laravel packages, and the PSR-15 interfaces exist nowhere else
# on Debian. Tests that need RequestHandlerInterface load it with
# `php -d extension=<path>`.
#
# The .deb is fetched with `apt-get download` (no root needed) and unpacked
# with `dpkg -x` under build/psr-ext/ (gitignored); later runs reuse it.
# Exit status 1, with the reason on stderr, when it cannot be had (no
# network, no such package); the caller then skips.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cache=$root/build/psr-ext
package=php8.2-psr
api=$(php-config --extension-dir 2>/dev/null | xargs basename 2>/dev/null || echo 20220829)

find_so() {
	[ -d "$cache/root" ] && find "$cache/root" -name psr.so -path "*/$api/*" -print -quit || true
}

so=$(find_so)
if [ -n "$so" ]; then
	echo "$so"
	exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/download.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! (cd "$work" && apt-get download -q "$package" >"$work/apt.log" 2>&1); then
	echo "psr-ext: apt-get download $package failed: $(tail -n 1 "$work/apt.log")" >&2
	exit 1
fi
deb=$(find "$work" -maxdepth 1 -name "${package}_*.deb" -print -quit)
if [ -z "$deb" ]; then
	echo "psr-ext: apt-get download $package left no .deb" >&2
	exit 1
fi
# Unpack into a fresh directory and move it into place in one step, so a
# concurrent run never sees half a tree.
mkdir "$work/root"
dpkg -x "$deb" "$work/root"
rm -rf "$cache/root"
mv "$work/root" "$cache/root"
so=$(find_so)
if [ -z "$so" ]; then
	echo "psr-ext: $package holds no psr.so for PHP API $api" >&2
	exit 1
fi
echo "$so"
