#!/usr/bin/env bash
# Makes (once) a stock Debian root of a suite with debootstrap, the way the installer's base
# system is (Priority required and important, systemd included), and caches it as a tarball:
#   scripts/debian/root.sh bullseye|bookworm|trixie
# prints $CTL_DEBIAN_CACHE/<suite>/<suite>-root.tar.gz (default ~/.cache/ctl-mqtt/<suite>/...).
# Packages come from the Debian mirror this machine's apt uses (else deb.debian.org;
# CTL_DEBIAN_MIRROR overrides it); the root's apt sources are <suite>, <suite>-updates and
# <suite>-security, like a fresh install. CTL_DEBIAN_REFRESH=1 makes it again. Needs root and
# debootstrap.
set -euo pipefail

suite="${1:?usage: root.sh SUITE}"
case "$suite" in bullseye | bookworm | trixie) ;; *) echo "root.sh: no Debian suite $suite here" >&2; exit 2 ;; esac
cache="${CTL_DEBIAN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ctl-mqtt}/$suite"
tarball="$cache/$suite-root.tar.gz"
log() { printf '%s: %s\n' "$suite" "$*" >&2; }

if [ -f "$tarball" ] && [ "${CTL_DEBIAN_REFRESH:-0}" != 1 ]; then
  echo "$tarball"
  exit 0
fi
[ "$(id -u)" = 0 ] || { log "making the Debian root needs root (debootstrap)"; exit 1; }
command -v debootstrap >/dev/null 2>&1 || { log "debootstrap is not installed (apt-get install debootstrap)"; exit 1; }

# The mirror of the machine's own Debian sources (deb822 or one-line format), else deb.debian.org.
mirror_of() { # suite-pattern
  cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v s="$1" '
    /^URIs:/ { uri = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i ~ s) { print uri; exit } }'
  grep -hE '^deb +(\[[^]]*\] +)?[a-z]+://' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    sed -E 's/\[[^]]*\] +//' | awk -v s="$1" '$3 ~ s { print $2; exit }'
  true
}
# Any Debian release among the machine's sources names its Debian mirror, which holds every suite
# (a third party's repository, such as NodeSource's "nodistro", names none).
releases='(buster|bullseye|bookworm|trixie|forky|sid)'
mirror="${CTL_DEBIAN_MIRROR:-$(mirror_of "^$releases\$" | head -n1)}"; mirror="${mirror:-http://deb.debian.org/debian}"
security="$(mirror_of "^$releases-security\$" | head -n1)"; security="${security:-http://deb.debian.org/debian-security}"

mkdir -p "$cache"
root="$(mktemp -d "$cache/root.XXXXXX")"
trap 'rm -rf "$root"' EXIT
started=$SECONDS
log "debootstrap $suite from $mirror into $root (a few minutes, once)"
debootstrap --arch="$(dpkg --print-architecture)" "$suite" "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 \
  || { tail -n 20 "$cache/debootstrap.log" >&2; log "debootstrap failed (log: $cache/debootstrap.log)"; exit 1; }
cat >"$root/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
SOURCES
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*_Packages
tar -C "$root" -czf "$tarball.new" .
mv "$tarball.new" "$tarball"
log "made $tarball in $((SECONDS - started)) s"
echo "$tarball"
