#!/usr/bin/env bash
# Makes (once) a stock Debian 12 bookworm root with debootstrap, the way the installer's base
# system is (Priority required and important, systemd included), from the Debian mirror this
# machine's apt uses, and caches it as a tarball: $CTL_BOOKWORM_CACHE or ~/.cache/ctl-mqtt/bookworm.
# Its apt sources are bookworm, bookworm-updates and bookworm-security, like a fresh install.
# CTL_BOOKWORM_REFRESH=1 makes it again. Prints the tarball's path. Needs root and debootstrap.
set -euo pipefail

cache="${CTL_BOOKWORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ctl-mqtt/bookworm}"
tarball="$cache/bookworm-root.tar.gz"
log() { printf 'bookworm: %s\n' "$*" >&2; }

if [ -f "$tarball" ] && [ "${CTL_BOOKWORM_REFRESH:-0}" != 1 ]; then
  echo "$tarball"
  exit 0
fi
[ "$(id -u)" = 0 ] || { log "making the Debian 12 root needs root (debootstrap)"; exit 1; }
command -v debootstrap >/dev/null 2>&1 || { log "debootstrap is not installed (apt-get install debootstrap)"; exit 1; }

# The mirror of the machine's own Debian sources (deb822 or one-line format), else deb.debian.org.
mirror_of() { # suite-pattern
  cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v s="$1" '
    /^URIs:/ { uri = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i ~ s) { print uri; exit } }'
  grep -hE '^deb +(\[[^]]*\] +)?[a-z]+://' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    sed -E 's/\[[^]]*\] +//' | awk -v s="$1" '$3 ~ s { print $2; exit }'
  true
}
mirror="$(mirror_of '^bookworm$' | head -n1)"; mirror="${mirror:-http://deb.debian.org/debian}"
security="$(mirror_of '^bookworm-security$' | head -n1)"; security="${security:-http://deb.debian.org/debian-security}"

mkdir -p "$cache"
root="$(mktemp -d "$cache/root.XXXXXX")"
trap 'rm -rf "$root"' EXIT
started=$SECONDS
log "debootstrap bookworm from $mirror into $root (a few minutes, once)"
debootstrap --arch="$(dpkg --print-architecture)" bookworm "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 \
  || { tail -n 20 "$cache/debootstrap.log" >&2; log "debootstrap failed (log: $cache/debootstrap.log)"; exit 1; }
cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
SOURCES
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*_Packages
tar -C "$root" -czf "$tarball.new" .
mv "$tarball.new" "$tarball"
log "made $tarball in $((SECONDS - started)) s"
echo "$tarball"
