#!/usr/bin/env bash
# Runs a shell command inside the HIL guest and exits with its exit code.
#   scripts/hil/run.sh 'gpiodetect; gpioinfo $HIL_CHIP0 | head'
# The guest sees the host root read-only at the same paths, the current directory read-write
# (HIL_RW overrides it; HIL_RW= shares nothing), and gpio-sim chips whose paths arrive in
# $HIL_CHIPn, $HIL_CHIPn_SYSFS (sim_gpioN/{pull,value}), $HIL_CHIPn_LABEL, $HIL_CHIPn_CONFIGFS.
# The command's output is streamed while it runs.
# With HIL_ARCH=armhf or arm64 the guest is a 32- or 64-bit ARM one (qemu-system-arm or
# qemu-system-aarch64 -M virt, TCG) booted into Debian 12's userland of that architecture
# (read-only), with the current directory and the folder node_modules points to at their host paths.
# Settings (environment): HIL_ACCEL=auto|tcg|kvm (auto: kvm only with real VT-x/AMD-V), HIL_SMP (2),
# HIL_MEM (1024M), HIL_CHIPS (LABEL:NLINES:PREFIX,...), HIL_TIMEOUT seconds (900), HIL_KEEP=1 keeps
# the exchange folder. Needs build.sh to have run. Exit 125 when the guest never reported.
set -euo pipefail
source "$(dirname "$0")/common.sh"

[ $# -ge 1 ] || { echo "usage: $0 'command ...'" >&2; exit 2; }
for f in "$HIL_KERNEL_IMAGE" initramfs.cpio.gz; do
  [ -f "$HIL_CACHE/$f" ] || { hil_log "missing $HIL_CACHE/$f: run scripts/hil/build.sh first"; exit 2; }
done

accel="${HIL_ACCEL:-auto}"
[ -n "$HIL_DEB_ARCH" ] && accel=tcg
if [ "$accel" = auto ]; then
  # Nested "pagetable-based" KVM (kvm_pvm) starts the guest but stalls it; TCG always works.
  if [ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qE '\b(vmx|svm)\b' /proc/cpuinfo && [ ! -d /sys/module/kvm_pvm ]; then
    accel=kvm
  else
    accel=tcg
  fi
fi
case "$accel" in
  kvm) accel_args=(-enable-kvm -cpu host) ;;
  tcg) accel_args=(-accel tcg,thread=multi -cpu max) ;;
  *) hil_log "HIL_ACCEL must be auto, tcg or kvm (got $accel)"; exit 2 ;;
esac

chips="${HIL_CHIPS:-pinctrl-bcm2711:32:GPIO,gpio-expander:16:EXP,wide-sim:72:W}"
rw="${HIL_RW-$PWD}"
xchg="$(mktemp -d "${TMPDIR:-/tmp}/ctl-hil.XXXXXX")"
case "$xchg$rw$chips" in *' '*) hil_log "paths and chip specs must not contain spaces"; exit 2 ;; esac
cleanup() {
  [ -n "${qemu_pid:-}" ] && kill "$qemu_pid" 2>/dev/null || true
  [ -n "${tail_pid:-}" ] && kill "$tail_pid" 2>/dev/null || true
  if [ "${HIL_KEEP:-0}" = 1 ]; then hil_log "kept $xchg"; else rm -rf "$xchg"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

printf 'cd %q\n%s\n' "$PWD" "$*" > "$xchg/cmd.sh"
: > "$xchg/output"

share_args=()
append="quiet panic=-1 hil.xchg=$xchg hil.chips=$chips"
machine_args=("${HIL_MACHINE_ARGS[@]}")
if [ -n "$HIL_DEB_ARCH" ]; then
  accel_args=(-accel tcg,thread=multi)
  append="console=ttyAMA0 $append hil.root=guestroot"
  guest_root="$HIL_CACHE/root"
  share_args+=(-virtfs "local,path=$guest_root,mount_tag=guestroot,security_model=none,readonly=on")
  # Host folders seen at their own paths: node_modules's target when it lies outside the
  # current directory. Their mount points are made in the (host-side) guest root.
  binds=()
  nm="$(readlink -f "$PWD/node_modules" 2>/dev/null || true)"
  case "$nm" in "" | "$PWD"/*) ;; *) [ -d "$nm" ] && binds+=("$nm") ;; esac
  for p in ${rw:+"$rw"} "${binds[@]}"; do mkdir -p "$guest_root$p"; done
  if [ ${#binds[@]} -gt 0 ]; then append+=" hil.binds=$(IFS=,; echo "${binds[*]}")"; fi
else
  append="console=ttyS0 $append"
fi
if [ -n "$rw" ]; then
  share_args+=(-virtfs "local,path=$rw,mount_tag=rw,security_model=none")
  append+=" hil.rw=$rw"
fi

started=$(date +%s.%N)
"$HIL_QEMU" "${machine_args[@]}" "${accel_args[@]}" -smp "${HIL_SMP:-2}" -m "${HIL_MEM:-1024M}" \
  -display none -serial "file:$xchg/console.log" -monitor none -no-reboot -nic none -no-user-config \
  -kernel "$HIL_CACHE/$HIL_KERNEL_IMAGE" -initrd "$HIL_CACHE/initramfs.cpio.gz" -append "$append" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs "local,path=$xchg,mount_tag=xchg,security_model=none" \
  "${share_args[@]}" &
qemu_pid=$!
tail -n +1 -f "$xchg/output" --pid="$qemu_pid" &
tail_pid=$!

# The ARM guests emulate every instruction of a foreign ISA: their suite takes several times longer.
default_timeout=900
[ -n "$HIL_DEB_ARCH" ] && default_timeout=3600
timeout="${HIL_TIMEOUT:-$default_timeout}"
deadline=$((SECONDS + timeout))
while kill -0 "$qemu_pid" 2>/dev/null; do
  if [ "$SECONDS" -ge "$deadline" ]; then
    hil_log "timeout after $timeout s; killing the guest"
    kill "$qemu_pid" 2>/dev/null || true
    break
  fi
  sleep 0.2
done
wait "$qemu_pid" 2>/dev/null || true
qemu_pid=
wait "$tail_pid" 2>/dev/null || true
tail_pid=
ended=$(date +%s.%N)

if [ ! -s "$xchg/rc" ]; then
  hil_log "the guest reported no exit code; console tail:"
  tail -n 40 "$xchg/console.log" >&2 || true
  exit 125
fi
rc="$(cat "$xchg/rc")"
hil_log "$(awk -v s="$started" -v e="$ended" -v b="$(cat "$xchg/boot_uptime")" -v i="$(cat "$xchg/init_uptime" 2>/dev/null || echo 0)" -v a="$accel" \
  'BEGIN { printf "guest (%s) booted in %.2f s (kernel %.2f s, init with chips and mounts %.2f s); run took %.2f s end to end", a, b, i, b - i, e - s }')"
exit "$rc"
