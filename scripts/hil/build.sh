#!/usr/bin/env bash
# Builds (once, cached in $CTL_HIL_CACHE or ~/.cache/ctl-mqtt/hil) the HIL guest:
#   bzImage           Debian linux-source-6.1, tinyconfig + kernel.config (gpio-sim, cdev v1/v2,
#                     configfs, 9p over virtio, IIO dummy)
#   initramfs.cpio.gz busybox-static + guest-init.sh as /init
# With HIL_ARCH=armhf (cache ~/.cache/ctl-mqtt/hil-armhf): zImage cross-compiled with
# gcc-arm-linux-gnueabihf from the same sources (kernel.armhf.config), busybox-static:armhf in the
# initramfs, and Debian 12's armhf userland in root/ (foreign-root.sh). HIL_ARCH=arm64 likewise
# (cache hil-arm64): Image from gcc-aarch64-linux-gnu and kernel.arm64.config, arm64 packages.
# Rebuilds only what changed: the kernel when kernel.config or the source tarball changes, the
# initramfs when guest-init.sh or busybox changes.
# Exit codes: 0 ready, 77 cannot build here (tools missing and not root; message printed), else failure.
set -euo pipefail
source "$(dirname "$0")/common.sh"

hil_ensure_packages || exit "$HIL_SKIP_RC"
mkdir -p "$HIL_CACHE"
cd "$HIL_CACHE"

tarball="$(ls /usr/src/linux-source-6.1.tar.* | head -n1)"
config="$HIL_SCRIPTS/$HIL_KERNEL_CONFIG"
image="$HIL_KERNEL_IMAGE"
kernel_key="$(cat "$config" <(stat -c '%s %Y' "$tarball") | sha256sum | cut -c1-16)"
if [ -f "$image" ] && [ "$(cat "$image.key" 2>/dev/null)" = "$kernel_key" ]; then
  hil_log "kernel up to date ($HIL_CACHE/$image)"
else
  started=$SECONDS
  if [ ! -f linux/Makefile ] || [ "$(cat linux.tarball 2>/dev/null)" != "$(stat -c '%s %Y' "$tarball")" ]; then
    hil_log "unpacking $tarball"
    rm -rf linux linux-source-6.1
    tar -xf "$tarball"
    mv linux-source-6.1 linux
    stat -c '%s %Y' "$tarball" > linux.tarball
  fi
  cd linux
  hil_log "configuring (tinyconfig + $HIL_KERNEL_CONFIG)"
  make -s "${HIL_MAKE_ARGS[@]}" tinyconfig >/dev/null
  scripts/kconfig/merge_config.sh -m -O . .config "$config" >/dev/null
  make -s "${HIL_MAKE_ARGS[@]}" olddefconfig >/dev/null 2>&1
  # olddefconfig drops options whose dependencies are unmet: refuse a guest without them.
  lost=()
  while IFS= read -r line; do
    case "$line" in CONFIG_*=*) grep -qx "$line" .config || lost+=("$line") ;; esac
  done < "$config"
  if [ ${#lost[@]} -gt 0 ]; then
    hil_log "the final .config lacks: ${lost[*]}"
    exit 1
  fi
  hil_log "building $image with $(nproc) jobs (about 5 minutes on 2 cores, 13-15 for the ARM guests on busy ones)"
  nice make -s -j"$(nproc)" "${HIL_MAKE_ARGS[@]}" "$image" > ../kernel-build.log 2>&1 || { tail -n 30 ../kernel-build.log >&2; exit 1; }
  cp "$HIL_KERNEL_BUILT" "../$image.new"
  cd ..
  mv "$image.new" "$image"
  echo "$kernel_key" > "$image.key"
  hil_log "kernel built in $((SECONDS - started)) s"
fi

busybox=/bin/busybox
if [ -n "$HIL_DEB_ARCH" ]; then
  # foreign-root.sh first: it adds the architecture to apt, which the busybox download needs.
  bash "$HIL_SCRIPTS/foreign-root.sh"
  busybox="$HIL_CACHE/busybox"
  if [ ! -x "$busybox" ]; then
    hil_log "fetching busybox-static:$HIL_DEB_ARCH"
    dl="$(mktemp -d)"; chmod 0755 "$dl"
    (cd "$dl" && apt-get download -qq "busybox-static:$HIL_DEB_ARCH" 2>&1 | grep -v 'unsandboxed as root' >&2 || true)
    dpkg -x "$dl"/busybox-static_*.deb "$dl/x" && cp "$dl/x/bin/busybox" "$busybox"
    rm -rf "$dl"
  fi
fi
initramfs_key="$(cat "$HIL_SCRIPTS/guest-init.sh" "$busybox" | sha256sum | cut -c1-16)"
if [ -f initramfs.cpio.gz ] && [ "$(cat initramfs.key 2>/dev/null)" = "$initramfs_key" ]; then
  hil_log "initramfs up to date"
else
  root="$(mktemp -d)"
  trap 'rm -rf "$root"' EXIT
  mkdir -p "$root"/{bin,dev,proc,sys,mnt,newroot}
  cp "$busybox" "$root/bin/busybox"
  install -m 0755 "$HIL_SCRIPTS/guest-init.sh" "$root/init"
  (cd "$root" && find . -print0 | cpio --null -o -H newc --quiet | gzip -9) > initramfs.cpio.gz.new
  mv initramfs.cpio.gz.new initramfs.cpio.gz
  echo "$initramfs_key" > initramfs.key
  hil_log "initramfs built"
fi
