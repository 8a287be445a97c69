#!/usr/bin/env bash
# Installs a ctl-mqtt .deb the way a Debian user does, `apt install ./ctl-mqtt_<v>_all.deb`, in a
# chroot of a stock Debian root (scripts/debian/root.sh, cached), so apt resolves nodejs (and the
# recommended mosquitto) from the suite's repositories; then checks there: the nodejs apt chose,
# `--version` of the four binaries, `-j` of the installed configs, koffi loads its native
# binary, and the one process's unit and the services' units in it are enabled. Nothing may
# print a warning on stderr.
#
#   scripts/debian/check-install.sh SUITE path/to/ctl-mqtt_<version>_all.deb
#
#   bookworm (12), trixie (13): nodejs from Debian (18.x, 20.x).
#   bullseye (11), what Wiren Board's WB7 and WB8 run: Debian's nodejs is 12.x, below the
#     package's floor; Wiren Board's repository gives those controllers its own nodejs 22, and a
#     stand-in of it (scripts/debian/nodejs-standin.sh, Node.js $NODE_WB of
#     scripts/nodes/versions.sh) is offered by a local apt repository: apt must choose it.
#
# Needs root. Downloaded packages are kept in $CTL_DEBIAN_CACHE/<suite>/archives for the next run.
# The chroot gets /proc and the apt cache mounted, both unmounted on every exit; no service starts.
set -euo pipefail

suite="${1:?usage: check-install.sh SUITE DEB}"
deb="$(readlink -f "${2:?usage: check-install.sh SUITE DEB}")"
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../nodes/versions.sh
. "$here/../nodes/versions.sh"
cache="${CTL_DEBIAN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ctl-mqtt}/$suite"
log() { printf '%s: %s\n' "$suite" "$*"; }
fail() { printf '%s: FAILED: %s\n' "$suite" "$*" >&2; exit 1; }
case "$suite" in
  bookworm) node_expected='18.*' node_from="Debian 12's" ;;
  trixie) node_expected='20.*' node_from="Debian 13's" ;;
  bullseye) node_expected="$NODE_WB-*" node_from="the stand-in for Wiren Board's" ;;
  *) fail "no install check for the suite $suite" ;;
esac
[ "$(id -u)" = 0 ] || fail "the chroot needs root"
[ -f "$deb" ] || fail "$deb: no such file"

tarball="$(bash "$here/root.sh" "$suite")"
root="$(mktemp -d "${TMPDIR:-/tmp}/ctl-$suite.XXXXXX")"
mounts=()
cleanup() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null || true
  done
  # Never delete through a mount that is still there.
  if grep -q " $root/" /proc/mounts; then echo "$suite: $root still has mounts; left in place" >&2; else rm -rf "$root"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
bind() { # source target
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounts+=("$2")
}

started=$SECONDS
log "unpacking the $suite root $tarball into $root"
tar -C "$root" -xzf "$tarball"
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
mkdir -p "$cache/archives/partial"
bind "$cache/archives" "$root/var/cache/apt/archives"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# As in any chroot: packages' maintainer scripts must not start daemons (mosquitto's would).
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
if [ "$suite" = bullseye ]; then
  bash "$here/nodejs-standin.sh" "$NODE_WB" "$cache/nodejs-standin"
  bind "$cache/nodejs-standin" "$root/srv/nodejs-standin"
  echo 'deb [trusted=yes] file:/srv/nodejs-standin ./' >"$root/etc/apt/sources.list.d/nodejs-standin.list"
fi
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

log "apt install ./$(basename "$deb")"
# A mirror in the middle of a sync can fail one index: apt install then says whether it matters.
in_root apt-get update -qq >"$root/tmp/apt.log" 2>&1 || { cat "$root/tmp/apt.log" >&2; log "apt-get update reported errors (above); installing with the lists it has"; }
in_root apt-get install -y -q "./tmp/$(basename "$deb")" >>"$root/tmp/apt.log" 2>&1 || { tail -n 30 "$root/tmp/apt.log" >&2; fail "apt install"; }
grep -E '^Setting up (nodejs|libnode|ctl-mqtt|mosquitto)' "$root/tmp/apt.log" | sed 's/^/  /'
node_version="$(in_root dpkg-query -W -f='${Version}' nodejs)"
# shellcheck disable=SC2254
case "$node_version" in $node_expected) ;; *) fail "apt chose nodejs $node_version, not $node_from ($node_expected)" ;; esac
log "nodejs $node_version ($node_from), node $(in_root node --version)"

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
# Every directive of our units is one the suite's own systemd knows: one it did not know would be
# ignored, with a line in the journal only, where the service runs (Debian 11's systemd is 247).
systemd_version="$(in_root dpkg-query -W -f='${Version}' systemd)"
in_root /lib/systemd/systemd --dump-configuration-items \
  | awk '/^\[/ { section = $0; next } /=/ { sub(/=.*/, ""); print section $0 }' | sort -u >"$root/tmp/known"
units=("$root"/lib/systemd/system/ctl-mqtt* "$root"/lib/systemd/system/wb-diag-collect.service.d/ctl-mqtt.conf)
[ -e "${units[0]}" ] || fail "no ctl-mqtt unit under /lib/systemd/system"
[ -e "${units[1]}" ] || fail "no drop-in for wb-diag-collect.service"
unknown="$(find "${units[@]}" -type f -exec awk '
    /^[ \t]*(#|;|$)/ { next } /^\[/ { section = $0; next }
    /=/ { key = $0; sub(/[ \t]*=.*/, "", key); print section key "\t" FILENAME }' {} + \
  | sort -u | awk -F'\t' 'NR == FNR { known[$0] = 1; next } !($1 in known) { print "  " $1 " (" $2 ")" }' "$root/tmp/known" - )"
[ -z "$unknown" ] || { echo "$unknown" | sed "s|$root||" >&2; fail "systemd $systemd_version does not know the directives above"; }
log "systemd $systemd_version knows every directive of our units and of our drop-in on wb-diag-collect.service"
log "ok in $((SECONDS - started)) s"
