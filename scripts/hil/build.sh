#!/usr/bin/env bash
# Builds (once, cached in $CTL_HIL_CACHE or ~/.cache/ctl-mqtt/hil) the HIL guest:
#   bzImage           Debian linux-source-6.1, tinyconfig + kernel.config (gpio-sim, cdev v1/v2,
#                     configfs, 9p over virtio, IIO dummy)
#   initramfs.cpio.gz busybox-static + guest-init.sh as /init
# Rebuilds only what changed: the kernel when kernel.config or the source tarball changes, the
# initramfs when guest-init.sh or busybox changes.
# Exit codes: 0 ready, 77 cannot build here (tools missing and not root; message printed), else failure.
set -euo pipefail
source "$(dirname "$0")/common.sh"

hil_ensure_packages || exit "$HIL_SKIP_RC"
mkdir -p "$HIL_CACHE"
cd "$HIL_CACHE"

tarball="$(ls /usr/src/linux-source-6.1.tar.* | head -n1)"
kernel_key="$(cat "$HIL_SCRIPTS/kernel.config" <(stat -c '%s %Y' "$tarball") | sha256sum | cut -c1-16)"
if [ -f bzImage ] && [ "$(cat bzImage.key 2>/dev/null)" = "$kernel_key" ]; then
  hil_log "kernel up to date ($HIL_CACHE/bzImage)"
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
  hil_log "configuring (tinyconfig + kernel.config)"
  make -s tinyconfig >/dev/null
  scripts/kconfig/merge_config.sh -m -O . .config "$HIL_SCRIPTS/kernel.config" >/dev/null
  make -s olddefconfig >/dev/null
  # olddefconfig drops options whose dependencies are unmet: refuse a guest without them.
  lost=()
  while IFS= read -r line; do
    case "$line" in CONFIG_*=*) grep -qx "$line" .config || lost+=("$line") ;; esac
  done < "$HIL_SCRIPTS/kernel.config"
  if [ ${#lost[@]} -gt 0 ]; then
    hil_log "the final .config lacks: ${lost[*]}"
    exit 1
  fi
  hil_log "building bzImage with $(nproc) jobs (about 5 minutes on 2 cores)"
  make -s -j"$(nproc)" bzImage > ../kernel-build.log 2>&1 || { tail -n 30 ../kernel-build.log >&2; exit 1; }
  cp arch/x86/boot/bzImage ../bzImage.new
  cd ..
  mv bzImage.new bzImage
  echo "$kernel_key" > bzImage.key
  hil_log "kernel built in $((SECONDS - started)) s"
fi

initramfs_key="$(cat "$HIL_SCRIPTS/guest-init.sh" /bin/busybox | sha256sum | cut -c1-16)"
if [ -f initramfs.cpio.gz ] && [ "$(cat initramfs.key 2>/dev/null)" = "$initramfs_key" ]; then
  hil_log "initramfs up to date"
else
  root="$(mktemp -d)"
  trap 'rm -rf "$root"' EXIT
  mkdir -p "$root"/{bin,dev,proc,sys,mnt,newroot}
  cp /bin/busybox "$root/bin/busybox"
  install -m 0755 "$HIL_SCRIPTS/guest-init.sh" "$root/init"
  (cd "$root" && find . -print0 | cpio --null -o -H newc --quiet | gzip -9) > initramfs.cpio.gz.new
  mv initramfs.cpio.gz.new initramfs.cpio.gz
  echo "$initramfs_key" > initramfs.key
  hil_log "initramfs built"
fi
