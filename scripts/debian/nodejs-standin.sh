#!/usr/bin/env bash
# Builds a stand-in for Wiren Board's `nodejs` package and a flat apt repository holding it:
#   scripts/debian/nodejs-standin.sh VERSION DIR
# Wiren Board's repository gives its Debian 11 controllers its own nodejs 22 (NodeSource-style:
# one `nodejs` package with /usr/bin/node; its packages depend on `nodejs (>= 22)` or
# `nodejs (>= 22.9)`), which cannot be fetched here. The stand-in is the official Node.js build
# of that version (scripts/nodes/official.sh) packaged the same way: `nodejs`,
# <VERSION>-1nodesource1, this machine's architecture, Depends on the C and C++ runtimes that build
# needs (glibc 2.28, libstdc++ of GCC 5.2 or later). DIR gets the .deb and its Packages index;
# an apt source `deb [trusted=yes] file:DIR ./` then offers it as a repository does. Made again
# only when VERSION changes. Prints nothing; needs dpkg-deb.
set -euo pipefail

version="${1:?usage: nodejs-standin.sh VERSION DIR}"
dir="${2:?usage: nodejs-standin.sh VERSION DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
arch="$(dpkg --print-architecture)"
deb_version="$version-1nodesource1"
deb="nodejs_${deb_version}_$arch.deb"
[ -f "$dir/$deb" ] && [ -f "$dir/Packages" ] && exit 0

node="$(bash "$here/../nodes/official.sh" "$version")"
work="$(mktemp -d "${TMPDIR:-/tmp}/ctl-standin.XXXXXX")"
trap 'rm -rf "$work"' EXIT
pkg="$work/pkg"
install -D -m 0755 "$node" "$pkg/usr/bin/node"
install -D -m 0644 "$(dirname "$node")/../LICENSE" "$pkg/usr/share/doc/nodejs/copyright"
mkdir -p "$pkg/DEBIAN"
cat >"$pkg/DEBIAN/control" <<CONTROL
Package: nodejs
Version: $deb_version
Architecture: $arch
Maintainer: ctl-mqtt CI <ci@localhost>
Installed-Size: $(du -sk "$pkg/usr" | cut -f1)
Depends: libc6 (>= 2.28), libgcc-s1 (>= 3.4), libstdc++6 (>= 5.2)
Section: web
Priority: optional
Homepage: https://nodejs.org
Description: Node.js $version (stand-in for Wiren Board's nodejs package)
 The official Node.js $version build, packaged as Wiren Board's repository
 packages nodejs for its controllers: ctl-mqtt's install check on Debian 11.
CONTROL
rm -rf "$dir"
mkdir -p "$dir"
# Fast compression: the package lives in a cache, never on a mirror.
dpkg-deb --root-owner-group -Zgzip -z1 --build "$pkg" "$dir/$deb" >/dev/null
{
  dpkg-deb -f "$dir/$deb"
  echo "Filename: ./$deb"
  echo "Size: $(stat -c %s "$dir/$deb")"
  echo "SHA256: $(sha256sum "$dir/$deb" | cut -d' ' -f1)"
  echo
} >"$dir/Packages"
printf 'nodejs stand-in: %s in %s\n' "$deb" "$dir" >&2
