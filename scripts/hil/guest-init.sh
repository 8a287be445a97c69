#!/bin/busybox sh
# PID 1 of the HIL guest (busybox sh from the initramfs).
#  1. mounts proc, sys, devtmpfs and configfs;
#  2. creates the gpio-sim chips of hil.chips=LABEL:NLINES:PREFIX,... (lines named PREFIX0..);
#  3. mounts the host root read-only over 9p, tmpfs on the writable places, the exchange folder
#     (hil.xchg) and the optional read-write folder (hil.rw) at their host paths; with
#     hil.root=TAG (the armhf guest) the root is that share instead (a userland of the guest's
#     architecture) and the host folders of hil.binds=PATH,... are bound into it at their paths;
#  4. chroots into that root, runs <xchg>/cmd.sh with bash, writes its exit code to <xchg>/rc
#     (output goes to <xchg>/output as it is produced) and powers off.
# The kernel command line carries the parameters (paths without spaces).
/bin/busybox --install -s /bin
export PATH=/bin

mount -t proc proc /proc
init_uptime="$(cut -d' ' -f1 /proc/uptime)"
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t configfs configfs /sys/kernel/config

xchg=; chips=; rw=; root_tag=hostroot; binds=
for arg in $(cat /proc/cmdline); do
  case "$arg" in
    hil.root=*) root_tag="${arg#hil.root=}" ;;
    hil.binds=*) binds="${arg#hil.binds=}" ;;
    hil.xchg=*) xchg="${arg#hil.xchg=}" ;;
    hil.chips=*) chips="${arg#hil.chips=}" ;;
    hil.rw=*) rw="${arg#hil.rw=}" ;;
  esac
done

die() {
  echo "hil-init: $*" > /dev/console
  poweroff -f
  sleep 5
}

ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up

# gpio-sim chips: one configfs device per chip, one bank each, every line named.
env_file=/envfile
: > "$env_file"
n=0
for spec in $(echo "$chips" | tr ',' ' '); do
  label="${spec%%:*}"; rest="${spec#*:}"
  nlines="${rest%%:*}"; prefix="${rest#*:}"
  dev=/sys/kernel/config/gpio-sim/hil$n
  mkdir "$dev" "$dev/gpio-bank0" || die "cannot create gpio-sim device $dev"
  echo "$label" > "$dev/gpio-bank0/label"
  echo "$nlines" > "$dev/gpio-bank0/num_lines"
  # One mkdir for every line directory, then shell builtins only (a fork costs ~10 ms under TCG).
  dirs=; i=0
  while [ "$i" -lt "$nlines" ]; do dirs="$dirs $dev/gpio-bank0/line$i"; i=$((i + 1)); done
  # shellcheck disable=SC2086
  mkdir $dirs || die "cannot create the lines of $dev"
  i=0
  while [ "$i" -lt "$nlines" ]; do echo "$prefix$i" > "$dev/gpio-bank0/line$i/name"; i=$((i + 1)); done
  echo 1 > "$dev/live" || die "gpio-sim device $dev did not go live"
  read -r chip_name < "$dev/gpio-bank0/chip_name"
  read -r dev_name < "$dev/dev_name"
  {
    echo "export HIL_CHIP$n=/dev/$chip_name"
    echo "export HIL_CHIP${n}_LABEL=$label"
    echo "export HIL_CHIP${n}_LINES=$nlines"
    echo "export HIL_CHIP${n}_PREFIX=$prefix"
    echo "export HIL_CHIP${n}_SYSFS=/sys/devices/platform/$dev_name/$chip_name"
    echo "export HIL_CHIP${n}_CONFIGFS=$dev"
  } >> "$env_file"
  n=$((n + 1))
done
echo "export HIL_NCHIPS=$n HIL_GUEST=1" >> "$env_file"

# The host root (or the guest's own userland), read-only; tmpfs where programs write.
nr=/newroot
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=loose,ro "$root_tag" "$nr" \
  || die "cannot mount the root ($root_tag) over 9p"
if [ "$root_tag" != hostroot ]; then
  mkdir -p /hostroot
  mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=loose,ro hostroot /hostroot \
    || die "cannot mount the host root over 9p"
  for path in $(echo "$binds" | tr ',' ' '); do
    mount -o bind "/hostroot$path" "$nr$path" || die "cannot bind the host's $path"
  done
fi
for d in proc sys dev; do mount -o bind "/$d" "$nr/$d" || die "cannot bind /$d"; done
mount -t configfs configfs "$nr/sys/kernel/config"
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts "$nr/dev/pts" 2>/dev/null
mount -t tmpfs tmpfs "$nr/dev/shm"
for d in tmp run var/tmp root; do mount -t tmpfs -o mode=1777 tmpfs "$nr/$d"; done
chmod 0700 "$nr/root"

# Shared folders at their host paths (created in a tmpfs when they lie under one).
mount_share() { # tag path
  [ -d "$nr$2" ] || mkdir -p "$nr$2" || die "cannot create mount point $2"
  mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 "$1" "$nr$2" || die "cannot mount $1 at $2"
}
[ -n "$xchg" ] || die "no hil.xchg on the kernel command line"
mount_share xchg "$xchg"
[ -n "$rw" ] && mount_share rw "$rw"
cp "$env_file" "$nr$xchg/env.sh"

echo "$init_uptime" > "$nr$xchg/init_uptime"
cut -d' ' -f1 /proc/uptime > "$nr$xchg/boot_uptime"
HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  chroot "$nr" /bin/bash -c ". '$xchg/env.sh'; exec bash '$xchg/cmd.sh'" > "$nr$xchg/output" 2>&1 < /dev/null
echo $? > "$nr$xchg/rc"
cut -d' ' -f1 /proc/uptime > "$nr$xchg/end_uptime"
sync
poweroff -f
sleep 5
