#!/usr/bin/env bash
# Installs a ctl-mqtt .deb the way a Debian 12 user does, `apt install ./ctl-mqtt_<v>_all.deb`, in
# a chroot of a stock bookworm root (scripts/bookworm/root.sh, cached), so apt resolves nodejs
# (and the recommended mosquitto) from Debian; then checks there: Debian's nodejs 18 was chosen,
# `--version` of the four binaries, `-j` of the installed configs, koffi loads its native
# binary, and the one process's unit and the services' units in it are enabled. Nothing may print a warning on stderr.
#
#   scripts/bookworm/check-install.sh path/to/ctl-mqtt_<version>_all.deb
#
# Needs root. Downloaded packages are kept in $CTL_BOOKWORM_CACHE/archives for the next run. The
# chroot gets /proc and the apt cache mounted, both unmounted on every exit; no service starts.
set -euo pipefail

deb="$(readlink -f "${1:?usage: check-install.sh DEB}")"
here="$(cd "$(dirname "$0")" && pwd)"
cache="${CTL_BOOKWORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ctl-mqtt/bookworm}"
log() { printf 'bookworm: %s\n' "$*"; }
fail() { printf 'bookworm: FAILED: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "the chroot needs root"
[ -f "$deb" ] || fail "$deb: no such file"

tarball="$(bash "$here/root.sh")"
root="$(mktemp -d "${TMPDIR:-/tmp}/ctl-bookworm.XXXXXX")"
mounts=()
cleanup() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null || true
  done
  # Never delete through a mount that is still there.
  if grep -q " $root/" /proc/mounts; then echo "bookworm: $root still has mounts; left in place" >&2; else rm -rf "$root"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
bind() { # source target
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounts+=("$2")
}

started=$SECONDS
log "unpacking the Debian 12 root $tarball into $root"
tar -C "$root" -xzf "$tarball"
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
mkdir -p "$cache/archives/partial"
bind "$cache/archives" "$root/var/cache/apt/archives"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# As in any chroot: packages' maintainer scripts must not start daemons (mosquitto's would).
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

log "apt install ./$(basename "$deb")"
# A mirror in the middle of a sync can fail one index: apt install then says whether it matters.
in_root apt-get update -qq >"$root/tmp/apt.log" 2>&1 || { cat "$root/tmp/apt.log" >&2; log "apt-get update reported errors (above); installing with the lists it has"; }
in_root apt-get install -y -q "./tmp/$(basename "$deb")" >>"$root/tmp/apt.log" 2>&1 || { tail -n 30 "$root/tmp/apt.log" >&2; fail "apt install"; }
grep -E '^Setting up (nodejs|libnode|ctl-mqtt|mosquitto)' "$root/tmp/apt.log" | sed 's/^/  /'
node_version="$(in_root dpkg-query -W -f='${Version}' nodejs)"
case "$node_version" in 18.*) ;; *) fail "apt chose nodejs $node_version, not Debian 12's 18.x" ;; esac
log "nodejs $node_version (Debian's), node $(in_root node --version)"

# Runs a command in the root; its stderr must be free of warnings.
checked() { # what command...
  local what="$1"; shift
  if ! in_root "$@" >"$root/tmp/out" 2>"$root/tmp/err"; then cat "$root/tmp/out" "$root/tmp/err" >&2; fail "$what"; fi
  if grep -E 'Warning:|\(node:[0-9]+\)' "$root/tmp/err" >&2; then fail "$what wrote a warning on stderr (above)"; fi
}
for bin in ctl-mqtt ctl-mqtt-gpio ctl-mqtt-adc ctl-mqtt-console; do
  checked "$bin --version" "$bin" --version
  log "$(cat "$root/tmp/out")"
done
for bin in ctl-mqtt-gpio ctl-mqtt-adc; do
  checked "$bin -j" "$bin" -j
  grep -qE '"(iio_)?channels"' "$root/tmp/out" || fail "$bin -j printed no channels: $(head -c 200 "$root/tmp/out")"
  log "$bin -j of /etc/$bin.conf: ok"
done
checked "koffi" node -e 'require("/usr/lib/ctl-mqtt/node_modules/koffi"); console.log("koffi loads")'
log "$(cat "$root/tmp/out")"
# The one process, and the services' units in it (enabled with it).
for unit in ctl-mqtt ctl-mqtt-gpio ctl-mqtt-adc ctl-mqtt-console; do
  state="$(in_root systemctl is-enabled "$unit.service" 2>&1 || true)"
  [ "$state" = enabled ] || fail "$unit.service is $state, not enabled"
done
log "units enabled: $(cd "$root/etc/systemd/system" && echo */ctl-mqtt*.service)"
log "ok in $((SECONDS - started)) s"
