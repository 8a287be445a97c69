#!/usr/bin/env bash
# Unpacks Debian 12's own Node.js 18 into a prefix, without installing it (the machine's node stays):
#   nodejs and libnode108 at the version Debian bookworm ships (never another repository's nodejs),
#   and, recursively, what they depend on apart from the base libraries every Debian system has
#   (libc6, libgcc-s1, libstdc++6, libssl3, zlib1g): libuv1, libicu72, libc-ares2, libbrotli1,
#   libnghttp2-14 and the JavaScript builtins Debian's node loads from /usr/share/nodejs
#   (node-cjs-module-lexer, node-undici, node-acorn and theirs).
# The packages come from the machine's apt sources (`apt-get download`, then `dpkg -x`); the prefix
# is $CTL_NODE18_CACHE or ~/.cache/ctl-mqtt/node18 and is rebuilt only when a version changes.
# Prints the prefix on stdout; run programs with scripts/node18/node.
set -euo pipefail

cache="${CTL_NODE18_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ctl-mqtt/node18}"
base_libs=" libc6 libgcc-s1 libstdc++6 libssl3 zlib1g "
log() { printf 'node18: %s\n' "$*" >&2; }

# Debian's nodejs: the newest version offered by a bookworm suite (bookworm, -updates, -security).
debian_node() { apt-cache madison nodejs | awk -F' [|] ' '$3 ~ / bookworm(-[a-z]+)?\// { print $2; exit }'; }
node_version="$(debian_node)"
if [ -z "$node_version" ] && [ "$(id -u)" = 0 ]; then
  apt-get update -qq >&2   # a fresh container has no apt lists yet
  node_version="$(debian_node)"
fi
if [ -z "$node_version" ]; then
  log "no nodejs from Debian bookworm in the apt lists (is this Debian 12 with its apt sources? try apt-get update)"
  exit 1
fi

# package=version of everything to unpack, found by walking Depends from nodejs.
declare -A seen=()
pkgs=()
visit() { # name [version]
  local name="$1" version="${2:-}"
  [ -n "${seen[$name]:-}" ] && return 0
  case "$base_libs" in *" $name "*) return 0 ;; esac
  seen[$name]=1
  [ -n "$version" ] || version="$(apt-cache policy "$name" | awk '/Candidate:/ { print $2; exit }')"
  if [ -z "$version" ] || [ "$version" = "(none)" ]; then log "no candidate for $name"; exit 1; fi
  pkgs+=("$name=$version")
  local dep alt dep_name dep_version
  # Depends/Pre-Depends of that exact version, one alternative group per line; the first
  # alternative is taken (for node-acorn: "nodejs:any | nodejs (<< ...)", nodejs itself).
  while IFS= read -r dep; do
    alt="${dep%%|*}"
    dep_name="$(echo "$alt" | awk '{ print $1 }')"; dep_name="${dep_name%%:*}"
    dep_version=
    # libnode108 is tied to nodejs's exact version.
    if [[ "$alt" =~ \(=\ ([^\)]+)\) ]]; then dep_version="${BASH_REMATCH[1]}"; fi
    [ "$dep_name" = nodejs ] && continue
    visit "$dep_name" "$dep_version"
  done < <(apt-cache show "$name=$version" | awk '/^(Pre-)?Depends:/ { sub(/^[^:]+: /, ""); print }' | head -n1 | tr ',' '\n' | sed 's/^ *//')
}
visit nodejs "$node_version"

key="$(printf '%s\n' "${pkgs[@]}" | sort)"
if [ -x "$cache/usr/bin/node" ] && [ "$(cat "$cache/.packages" 2>/dev/null)" = "$key" ]; then
  echo "$cache"
  exit 0
fi

log "unpacking Debian's ${pkgs[*]}"
work="$(mktemp -d "${TMPDIR:-/tmp}/ctl-node18.XXXXXX")"
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"   # apt's _apt user downloads into it
(cd "$work" && apt-get download -qq "${pkgs[@]}" 2>&1 | grep -v 'unsandboxed as root' >&2 || true)
for p in "${pkgs[@]}"; do
  ls "$work/${p%%=*}"_*.deb >/dev/null 2>&1 || { log "apt-get download did not fetch ${p}"; exit 1; }
done
rm -rf "$cache.new"
mkdir -p "$cache.new"
for deb in "$work"/*.deb; do dpkg -x "$deb" "$cache.new"; done
printf '%s\n' "$key" > "$cache.new/.packages"

# Every shared library node needs must resolve from the prefix or the base system.
missing="$(LD_LIBRARY_PATH="$(bash "$(dirname "$0")/lib-path.sh" "$cache.new")" ldd "$cache.new/usr/bin/node" | grep 'not found' || true)"
if [ -n "$missing" ]; then
  log "Debian's node would not start; missing libraries:"
  echo "$missing" >&2
  exit 1
fi
rm -rf "$cache"
mv "$cache.new" "$cache"
log "ready in $cache"
echo "$cache"
