#!/usr/bin/env bash
# Runs a shell command inside the HIL guest and exits with its exit code.
#   scripts/hil/run.sh 'gpiodetect; gpioinfo $HIL_CHIP0 | head'
# The guest sees the host root read-only at the same paths, the current directory read-write
# (HIL_RW overrides it; HIL_RW= shares nothing), and gpio-sim chips whose paths arrive in
# $HIL_CHIPn, $HIL_CHIPn_SYSFS (sim_gpioN/{pull,value}), $HIL_CHIPn_LABEL, $HIL_CHIPn_CONFIGFS.
# The command's output is streamed while it runs.
# Settings (environment): HIL_ACCEL=auto|tcg|kvm (auto: kvm only with real VT-x/AMD-V), HIL_SMP (2),
# HIL_MEM (1024M), HIL_CHIPS (LABEL:NLINES:PREFIX,...), HIL_TIMEOUT seconds (900), HIL_KEEP=1 keeps
# the exchange folder. Needs build.sh to have run. Exit 125 when the guest never reported.
set -euo pipefail
source "$(dirname "$0")/common.sh"

[ $# -ge 1 ] || { echo "usage: $0 'command ...'" >&2; exit 2; }
for f in bzImage initramfs.cpio.gz; do
  [ -f "$HIL_CACHE/$f" ] || { hil_log "missing $HIL_CACHE/$f: run scripts/hil/build.sh first"; exit 2; }
done

accel="${HIL_ACCEL:-auto}"
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
append="console=ttyS0 quiet panic=-1 hil.xchg=$xchg hil.chips=$chips"
if [ -n "$rw" ]; then
  share_args=(-virtfs "local,path=$rw,mount_tag=rw,security_model=none")
  append+=" hil.rw=$rw"
fi

started=$(date +%s.%N)
qemu-system-x86_64 "${accel_args[@]}" -smp "${HIL_SMP:-2}" -m "${HIL_MEM:-1024M}" \
  -display none -serial "file:$xchg/console.log" -monitor none -no-reboot -nic none -no-user-config \
  -kernel "$HIL_CACHE/bzImage" -initrd "$HIL_CACHE/initramfs.cpio.gz" -append "$append" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs "local,path=$xchg,mount_tag=xchg,security_model=none" \
  "${share_args[@]}" &
qemu_pid=$!
tail -n +1 -f "$xchg/output" --pid="$qemu_pid" &
tail_pid=$!

timeout="${HIL_TIMEOUT:-900}"
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
