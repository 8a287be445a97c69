#!/usr/bin/env bash
# Builds (once per set of package versions) the userland of a foreign-architecture HIL guest
# (HIL_ARCH=armhf or arm64) in $HIL_CACHE/root: Debian 12's nodejs and libnode108, bash, coreutils
# and mosquitto of that architecture with the libraries they load, unpacked with `dpkg -x` (never
# installed: nothing runs on the host). The guest boots into it and sees the repository and
# node_modules at their host paths; koffi's prebuilt linux_armhf / linux_arm64 binary comes with
# node_modules. Needs `dpkg --add-architecture ARCH` and apt lists for it (done here as root when
# missing).
set -euo pipefail
source "$(dirname "$0")/common.sh"

[ -n "$HIL_DEB_ARCH" ] || { hil_log "foreign-root.sh is for HIL_ARCH=armhf or arm64"; exit 2; }
arch="$HIL_DEB_ARCH"
if ! dpkg --print-foreign-architectures | grep -qx "$arch" || [ -z "$(apt-cache madison "nodejs:$arch" 2>/dev/null)" ]; then
  [ "$(id -u)" = 0 ] || { hil_log "SKIP: the $arch guest needs 'dpkg --add-architecture $arch && apt-get update' (as root)"; exit "$HIL_SKIP_RC"; }
  hil_log "adding the $arch architecture to apt"
  dpkg --add-architecture "$arch"
  apt-get update -qq || true   # a mirror in sync may fail one index; the check below decides
  [ -n "$(apt-cache madison "nodejs:$arch")" ] || { hil_log "no nodejs:$arch in the apt lists"; exit 1; }
fi

# Walking the package closure takes apt-cache a minute or two: skipped while neither the apt lists
# nor this script changed since the userland was made.
root="$HIL_CACHE/root"
stamp="$(stat -c %Y /var/lib/apt/lists) $(sha256sum < "$0" | cut -c1-16)"
if [ -x "$root/usr/bin/node" ] && [ "$(cat "$HIL_CACHE/root.stamp" 2>/dev/null)" = "$stamp" ]; then
  hil_log "$arch userland up to date ($root)"
  exit 0
fi

# The closure of the wanted packages over Depends, following only libraries (lib*, zlib1g, gcc-*-base)
# and Debian's JavaScript builtins (node-*): maintainer-script tools (adduser, debconf, perl)
# are not needed by files unpacked with dpkg -x.
declare -A seen=()
pkgs=()
visit() { # name
  local name="$1" qualified version dep
  [ -n "${seen[$name]:-}" ] && return 0
  seen[$name]=1
  qualified="$name:$arch"
  version="$(apt-cache policy "$qualified" | awk '/Candidate:/ { print $2; exit }')"
  if [ -z "$version" ] || [ "$version" = "(none)" ]; then
    # Architecture-independent packages (node-*) have no :$arch candidate.
    qualified="$name"
    version="$(apt-cache policy "$name" | awk '/Candidate:/ { print $2; exit }')"
  fi
  [ -n "$version" ] && [ "$version" != "(none)" ] || { hil_log "no candidate for $name"; exit 1; }
  # nodejs from Debian only, never another repository's (the host may have NodeSource's).
  if [ "$name" = nodejs ]; then
    version="$(apt-cache madison "nodejs:$arch" | awk -F' [|] ' '$3 ~ / bookworm(-[a-z]+)?\// { print $2; exit }')"
  fi
  pkgs+=("$qualified=$version")
  while IFS= read -r dep; do
    dep="${dep%%|*}"; dep="$(echo "$dep" | awk '{ print $1 }')"; dep="${dep%%:*}"
    case "$dep" in lib*|zlib1g|gcc-*-base|node-*) visit "$dep" ;; esac
  done < <(apt-cache show "$qualified=$version" | awk '/^(Pre-)?Depends:/ { sub(/^[^:]+: /, ""); print }' | head -n2 | tr ',' '\n' | sed 's/^ *//')
}
for p in nodejs libnode108 bash coreutils mosquitto libc6; do visit "$p"; done
# libnode108 at nodejs's exact version.
node_version="$(printf '%s\n' "${pkgs[@]}" | sed -n "s/^nodejs:$arch=//p")"
for i in "${!pkgs[@]}"; do case "${pkgs[i]}" in libnode108:*) pkgs[i]="libnode108:$arch=$node_version" ;; esac; done

key="$(printf '%s\n' "${pkgs[@]}" | sort)"
if [ -x "$root/usr/bin/node" ] && [ "$(cat "$HIL_CACHE/root.packages" 2>/dev/null)" = "$key" ]; then
  echo "$stamp" > "$HIL_CACHE/root.stamp"
  hil_log "$arch userland up to date ($root)"
  exit 0
fi

hil_log "unpacking ${#pkgs[@]} $arch packages into $root"
work="$(mktemp -d "${TMPDIR:-/tmp}/ctl-hil-$arch.XXXXXX")"
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
(cd "$work" && apt-get download -qq "${pkgs[@]}" 2>&1 | grep -v 'unsandboxed as root' >&2 || true)
[ "$(ls "$work"/*.deb | wc -l)" = "${#pkgs[@]}" ] || { hil_log "apt-get download fetched $(ls "$work"/*.deb | wc -l) of ${#pkgs[@]} packages"; exit 1; }
rm -rf "$root.new"
mkdir -p "$root.new"
for deb in "$work"/*.deb; do dpkg -x "$deb" "$root.new"; done
# Mount points of guest-init.sh, and the host's users (mosquitto drops to its user) and hosts.
mkdir -p "$root.new"/{proc,sys,dev,tmp,run,root,var/tmp,etc}
cp /etc/passwd /etc/group /etc/hosts "$root.new/etc/"
ln -sf bash "$root.new/bin/sh"
printf '%s\n' "/lib/$HIL_TRIPLET" "/usr/lib/$HIL_TRIPLET" > "$root.new/etc/ld.so.conf"
rm -rf "$root"
mv "$root.new" "$root"
printf '%s\n' "$key" > "$HIL_CACHE/root.packages"
echo "$stamp" > "$HIL_CACHE/root.stamp"
hil_log "$arch userland ready ($(du -sm "$root" | cut -f1) MiB)"
