# Shared settings of the HIL scripts (sourced, not run).
# The guest's architecture: x86_64 (default), armhf (HIL_ARCH=armhf: a 32-bit ARM guest) or arm64
# (HIL_ARCH=arm64: a 64-bit ARM one, as on Wiren Board 8). The ARM guests run on qemu's virt board
# under TCG, in Debian 12's userland of their architecture (see foreign-root.sh).
HIL_ARCH="${HIL_ARCH:-x86_64}"
# The cache lives outside the repository so every worktree and clone reuses one kernel.
HIL_CACHE="${CTL_HIL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ctl-mqtt/hil}"
# HIL_DEB_ARCH is the Debian architecture of a foreign guest's userland (empty for x86_64, whose
# guest runs the host's own) and HIL_TRIPLET its multiarch tuple, also the cross compiler's prefix.
HIL_DEB_ARCH=; HIL_TRIPLET=; HIL_MACHINE_ARGS=()
case "$HIL_ARCH" in
  x86_64)
    HIL_KERNEL_CONFIG=kernel.config; HIL_MAKE_ARGS=(); HIL_KERNEL_IMAGE=bzImage
    HIL_KERNEL_BUILT=arch/x86/boot/bzImage; HIL_QEMU=qemu-system-x86_64 ;;
  armhf)
    HIL_DEB_ARCH=armhf; HIL_TRIPLET=arm-linux-gnueabihf
    HIL_KERNEL_CONFIG=kernel.armhf.config; HIL_MAKE_ARGS=(ARCH=arm)
    HIL_KERNEL_IMAGE=zImage; HIL_KERNEL_BUILT=arch/arm/boot/zImage; HIL_QEMU=qemu-system-arm
    # The board's CPU (Cortex-A15, ARMv7 with VFPv4 and NEON) and its own devices; highmem=off
    # keeps every device below 4 GiB for a kernel without LPAE.
    HIL_MACHINE_ARGS=(-M virt,highmem=off -cpu cortex-a15) ;;
  arm64)
    HIL_DEB_ARCH=arm64; HIL_TRIPLET=aarch64-linux-gnu
    HIL_KERNEL_CONFIG=kernel.arm64.config; HIL_MAKE_ARGS=(ARCH=arm64)
    HIL_KERNEL_IMAGE=Image; HIL_KERNEL_BUILT=arch/arm64/boot/Image; HIL_QEMU=qemu-system-aarch64
    # Cortex-A53: a plain ARMv8.0 core, as 64-bit controllers (WB8) have.
    HIL_MACHINE_ARGS=(-M virt -cpu cortex-a53) ;;
  *) printf 'hil: HIL_ARCH must be x86_64, armhf or arm64 (got %s)\n' "$HIL_ARCH" >&2; exit 2 ;;
esac
if [ -n "$HIL_DEB_ARCH" ]; then
  HIL_CACHE="$HIL_CACHE-$HIL_DEB_ARCH"
  HIL_MAKE_ARGS+=("CROSS_COMPILE=$HIL_TRIPLET-")
fi
HIL_SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Exit code of build.sh when the harness cannot run here (tools missing and not root).
HIL_SKIP_RC=77

hil_log() { printf 'hil: %s\n' "$*" >&2; }

# Prints the Debian packages among the tool set that are missing (empty when all are there).
hil_missing_packages() {
  local missing=()
  ls /usr/src/linux-source-6.1.tar.* >/dev/null 2>&1 || missing+=(linux-source-6.1)
  if [ -n "$HIL_DEB_ARCH" ]; then
    # The guest's busybox and userland are packages of its architecture fetched by build.sh and
    # foreign-root.sh; qemu-system-arm holds both qemu-system-arm and qemu-system-aarch64.
    command -v "$HIL_QEMU" >/dev/null 2>&1 || missing+=(qemu-system-arm)
    command -v "$HIL_TRIPLET-gcc" >/dev/null 2>&1 || missing+=("gcc-$HIL_TRIPLET")
  else
    command -v qemu-system-x86_64 >/dev/null 2>&1 || missing+=(qemu-system-x86)
    [ -x /bin/busybox ] && file_is_static /bin/busybox || missing+=(busybox-static)
  fi
  local tool pkg
  for tool in gcc:build-essential make:build-essential bc:bc bison:bison flex:flex cpio:cpio xz:xz-utils \
              gzip:gzip gpiodetect:gpiod; do
    command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}")
  done
  [ -e /usr/include/libelf.h ] || missing+=(libelf-dev)
  [ -e /usr/include/openssl/ssl.h ] || missing+=(libssl-dev)
  printf '%s\n' "${missing[@]}" | sort -u | grep -v '^$' || true
}

# True when the ELF file has no program interpreter (a statically linked busybox).
# Without readelf (binutils) we cannot tell, and trust the file.
file_is_static() {
  command -v readelf >/dev/null 2>&1 || return 0
  ! readelf -l "$1" 2>/dev/null | grep -q 'INTERP'
}

# Installs missing packages when root; returns 1 (after a clear message) when it cannot.
hil_ensure_packages() {
  local missing
  missing="$(hil_missing_packages | tr '\n' ' ')"
  [ -z "${missing// /}" ] && return 0
  if [ "$(id -u)" != 0 ]; then
    hil_log "SKIP: the HIL suite needs these Debian packages: $missing(install them as root, or run as root)"
    return 1
  fi
  hil_log "installing: $missing"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
}
