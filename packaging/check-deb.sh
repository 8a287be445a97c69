#!/usr/bin/env bash
# Installs a ctl-mqtt .deb into a throw-away root with `dpkg --root` and checks the installed
# copy: files and conffiles, maintainer scripts, the bins run with this machine's node
# (`--print-schema`, `-j`, `--version`, `--generate-board`), every module of both services loads, koffi loads its
# native binary, the systemd units verify; then purges it and checks nothing is left.
#
#   packaging/check-deb.sh path/to/ctl-mqtt_<version>_all.deb
#
# nodejs is not in the throw-away root (--force-depends); maintainer scripts run outside it
# (--force-script-chrootless, with DPKG_ROOT set). Needs dpkg and node (>= 18.19) on this machine;
# runs as root or as a user.
set -euo pipefail

deb=${1:?usage: check-deb.sh DEB}
repo=$(cd "$(dirname "$0")/.." && pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/ctl-mqtt-root.XXXXXX")
pids=()
trap 'for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done; rm -rf "$root"' EXIT

step() { printf 'check-deb: %s\n' "$*"; }
fail() { printf 'check-deb: FAILED: %s\n' "$*" >&2; exit 1; }
expect_file() { [ -e "$root/$1" ] || fail "$1 is not installed"; }
# Waits (at most 30 s) until every PATTERN is in LOG: a service says so once it is that far; a
# fixed sleep was too short on a loaded machine. 1 when one never came.
wait_log() { # LOG PATTERN...
  local log=$1 pattern missing
  shift
  for _ in $(seq 300); do
    missing=0
    for pattern in "$@"; do grep -q -- "$pattern" "$log" || missing=1; done
    [ "$missing" = 0 ] && return 0
    sleep 0.1
  done
  return 1
}

mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
: >"$root/var/lib/dpkg/status"
# As a user: dpkg installs into a root that user owns, and wants ldconfig & co. on its PATH.
not_root=()
[ "$(id -u)" = 0 ] || not_root=(--force-not-root)
export PATH="$PATH:/usr/sbin:/sbin"
dpkg_root() { dpkg --root="$root" --force-depends --force-script-chrootless "${not_root[@]}" "$@"; }

step "install $(basename "$deb") into $root"
dpkg_root --install "$deb" >/dev/null
status=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Status}' ctl-mqtt)
[ "$status" = "install ok installed" ] || fail "package status: $status"

step "files, conffiles, enabled units"
for f in usr/bin/ctl-mqtt-gpio usr/bin/ctl-mqtt-adc usr/lib/ctl-mqtt/package.json \
  usr/lib/ctl-mqtt/dist/bin/ctl-mqtt-gpio.js usr/lib/ctl-mqtt/dist/bin/ctl-mqtt-adc.js usr/lib/ctl-mqtt/dist/bin/ctl-mqtt-console.js \
  usr/share/ctl-mqtt-gpio/ctl-mqtt-gpio.schema.json usr/share/ctl-mqtt-adc/ctl-mqtt-adc.schema.json \
  usr/share/ctl-mqtt-gpio/boards/example.conf usr/share/ctl-mqtt-adc/boards/example.conf \
  lib/systemd/system/ctl-mqtt-gpio.service lib/systemd/system/ctl-mqtt-adc.service \
  lib/udev/rules.d/60-ctl-mqtt-gpio.rules etc/ctl-mqtt-gpio.conf etc/ctl-mqtt-adc.conf \
  usr/share/doc/ctl-mqtt/copyright usr/share/doc/ctl-mqtt/changelog.gz \
  usr/share/doc/ctl-mqtt/docs/migrating.md usr/share/doc/ctl-mqtt/docs/architecture.md usr/share/doc/ctl-mqtt/BENCHMARKS.md \
  var/lib/ctl-mqtt-gpio/conf.d var/lib/ctl-mqtt-adc/conf.d \
  usr/bin/ctl-mqtt-console lib/systemd/system/ctl-mqtt-console.service \
  usr/bin/ctl-mqtt usr/bin/ctl-mqtt-processes usr/lib/ctl-mqtt/dist/bin/ctl-mqtt.js lib/systemd/system/ctl-mqtt.service \
  usr/lib/ctl-mqtt/systemd/separate/ctl-mqtt-gpio.service usr/lib/ctl-mqtt/systemd/separate/ctl-mqtt-adc.service \
  usr/lib/ctl-mqtt/systemd/separate/ctl-mqtt-console.service etc/default/ctl-mqtt etc/default/ctl-mqtt-console \
  usr/lib/ctl-mqtt/dist/src/console/web/devices.html usr/lib/ctl-mqtt/dist/src/console/web/config.js; do
  expect_file "$f"
done
version=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Version}' ctl-mqtt)
changelog_head=$(gzip -dc "$root/usr/share/doc/ctl-mqtt/changelog.gz" | head -1)
[ "$changelog_head" = "ctl-mqtt ($version) unstable; urgency=medium" ] || fail "changelog.gz starts with: $changelog_head"
# postinst enabled the one process and the services' handles in it (links inside the root).
[ -L "$root/etc/systemd/system/multi-user.target.wants/ctl-mqtt.service" ] || fail "ctl-mqtt.service is not enabled"
for unit in ctl-mqtt-gpio ctl-mqtt-adc ctl-mqtt-console; do
  [ -L "$root/etc/systemd/system/ctl-mqtt.service.wants/$unit.service" ] || fail "$unit.service is not enabled with ctl-mqtt.service"
  [ ! -e "$root/etc/systemd/system/multi-user.target.wants/$unit.service" ] || fail "$unit.service is enabled on its own beside the one process"
done
[ -x "$root/usr/bin/ctl-mqtt-gpio" ] || fail "usr/bin/ctl-mqtt-gpio is not executable"
conffiles=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Conffiles}' ctl-mqtt | awk '{print $1}' | sort | tr '\n' ' ')
[ "$conffiles" = "/etc/ctl-mqtt-adc.conf /etc/ctl-mqtt-gpio.conf /etc/default/ctl-mqtt /etc/default/ctl-mqtt-adc /etc/default/ctl-mqtt-console /etc/default/ctl-mqtt-gpio " ] \
  || fail "conffiles: $conffiles"
[ ! -e "$root/usr/lib/ctl-mqtt/dist/src/demo" ] || fail "the demo is shipped"
modules=$(ls "$root/usr/lib/ctl-mqtt/node_modules" | tr "\n" " ")
[ "$modules" = "koffi " ] || fail "node_modules holds more than koffi (the rest is bundled): $modules"
koffi_builds=$(ls "$root/usr/lib/ctl-mqtt/node_modules/koffi/build/koffi" | sort | tr '\n' ' ')
[ "$koffi_builds" = "linux_arm64 linux_armhf linux_x64 " ] || fail "koffi binaries: $koffi_builds"
for svc in gpio adc; do
  cmp -s "$root/usr/share/ctl-mqtt-$svc/ctl-mqtt-$svc.schema.json" "$repo/schemas/ctl-mqtt-$svc.schema.json" \
    || fail "/usr/share/ctl-mqtt-$svc/ctl-mqtt-$svc.schema.json differs from schemas/"
  # The separate unit (ctl-mqtt-processes separate): the board file from the device tree before
  # every start, with the same paths as the service.
  unit="$root/usr/lib/ctl-mqtt/systemd/separate/ctl-mqtt-$svc.service"
  grep -qx 'Conflicts=ctl-mqtt.service' "$unit" || fail "separate ctl-mqtt-$svc.service could run beside the one process"
  grep -qx "ExecStartPre=/usr/bin/ctl-mqtt-$svc --generate-board \$CTL_MQTT_OPTS" "$unit" || fail "ctl-mqtt-$svc.service does not run --generate-board first"
  grep -qx "ExecStart=/usr/bin/ctl-mqtt-$svc \$CTL_MQTT_OPTS" "$unit" || fail "ctl-mqtt-$svc.service: ExecStart has options --generate-board lacks"
  grep -qx "EnvironmentFile=-/etc/default/ctl-mqtt-$svc" "$unit" || fail "ctl-mqtt-$svc.service does not read /etc/default/ctl-mqtt-$svc"
  grep -q '^#CTL_MQTT_OPTS=' "$root/etc/default/ctl-mqtt-$svc" || fail "/etc/default/ctl-mqtt-$svc has no commented example"
  grep -qx 'ExecReload=/bin/kill -HUP $MAINPID' "$unit" || fail "ctl-mqtt-$svc.service: systemctl reload does not send SIGHUP"
  # A reload asked during the start waits until the service is ready (READY=1 once published).
  grep -qx 'Type=notify' "$unit" || fail "ctl-mqtt-$svc.service is not Type=notify: a reload during the start would not wait"
  grep -qx 'NotifyAccess=main' "$unit" || fail "ctl-mqtt-$svc.service: NotifyAccess=main missing"
  grep -qx 'WatchdogSec=30' "$unit" || fail "ctl-mqtt-$svc.service: WatchdogSec=30 missing"
  grep -qx 'Restart=always' "$unit" || fail "ctl-mqtt-$svc.service: an end by a signal would not be restarted"
  grep -qx 'Wants=wb-hwconf-manager.service wb-modules.service' "$unit" || fail "ctl-mqtt-$svc.service does not want wb-hwconf-manager and wb-modules"
  grep -qx 'After=network.target mosquitto.service wb-hwconf-manager.service wb-modules.service' "$unit" \
    || fail "ctl-mqtt-$svc.service is not ordered after mosquitto, wb-hwconf-manager and wb-modules"
done
# The one process: what each service's unit did for it, once for all.
host_unit="$root/lib/systemd/system/ctl-mqtt.service"
for line in 'Type=notify' 'NotifyAccess=main' 'WatchdogSec=30' 'Restart=always' 'RestartPreventExitStatus=2 6' \
  'EnvironmentFile=-/etc/default/ctl-mqtt' 'ExecStart=/usr/bin/ctl-mqtt --defaults /etc/default --generate-boards' \
  'ExecReload=/bin/kill -HUP $MAINPID' 'Wants=wb-hwconf-manager.service wb-modules.service' \
  'After=network.target mosquitto.service wb-hwconf-manager.service wb-modules.service' \
  'StateDirectory=ctl-mqtt-gpio ctl-mqtt-adc ctl-mqtt-console' 'ProtectSystem=strict' \
  'ReadWritePaths=-/etc/ctl-mqtt-gpio.conf -/etc/ctl-mqtt-adc.conf -/var/lib/wb-mqtt-confed/schemas'; do
  grep -qxF "$line" "$host_unit" || fail "ctl-mqtt.service lacks $line"
done
# The services' units in it: reload and restart reach the process, never a second publisher.
for svc in gpio adc console; do
  unit="$root/lib/systemd/system/ctl-mqtt-$svc.service"
  for line in 'BindsTo=ctl-mqtt.service' 'PartOf=ctl-mqtt.service' 'PropagatesReloadTo=ctl-mqtt.service' 'Type=oneshot' \
    'RemainAfterExit=yes' 'ExecStart=/bin/systemctl kill --kill-whom=main --signal=SIGHUP ctl-mqtt.service' 'WantedBy=ctl-mqtt.service'; do
    grep -qxF "$line" "$unit" || fail "ctl-mqtt-$svc.service (in the one process) lacks $line"
  done
  grep -q '^ExecStart=/usr/bin/ctl-mqtt-' "$unit" && fail "ctl-mqtt-$svc.service starts a process of its own beside ctl-mqtt.service"
done
# One schema per config where wb-mqtt-confed looks: the units generate it; the package ships none.
[ ! -e "$root/usr/share/wb-mqtt-confed" ] || fail "the package ships schemas in /usr/share/wb-mqtt-confed (the editor would list each config twice)"
dpkg-deb -c "$deb" | grep -q 'wb-mqtt-confed' && fail "the package has files under wb-mqtt-confed"
grep -q -- '--no-block' "$root/var/lib/dpkg/info/ctl-mqtt.postinst" || fail "postinst waits for the services to be ready"

step "homeui's service gate: the console in Wiren Board's menu, on the console's own port, reached from loopback"
gate="$root/usr/share/wb-mqtt-homeui/gates.d/ctl-mqtt.json"
[ -f "$gate" ] || fail "no homeui gate file"
console_port=$("$root/usr/bin/ctl-mqtt-console" --help | sed -n 's/.*--port N .*(default \([0-9]*\)).*/\1/p')
# homeui's rules for a gate (gates.py in wirenboard/homeui): name [a-z0-9-], two different ports in
# 1024-65535 other than 80/443, role user|operator|admin, menu.title with en and ru.
node -e '
  const g = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const port = (p) => Number.isInteger(p) && p >= 1024 && p <= 65535;
  const problems = [];
  if (!/^[a-z0-9][a-z0-9-]*$/.test(require("path").basename(process.argv[1], ".json"))) problems.push("name");
  if (!port(g.internalPort) || !port(g.externalPort) || g.internalPort === g.externalPort) problems.push("ports");
  if (g.internalPort !== Number(process.argv[2])) problems.push(`internalPort ${g.internalPort} is not the console port ${process.argv[2]}`);
  if (!["user", "operator", "admin"].includes(g.role)) problems.push("role");
  if (typeof g.menu?.title?.en !== "string" || typeof g.menu?.title?.ru !== "string") problems.push("menu.title");
  if (problems.length) { console.error(problems.join(", ")); process.exit(1); }
' "$gate" "$console_port" || fail "the homeui gate file breaks homeui's rules"
grep -qx 'CTL_MQTT_OPTS="--trusted-proxy 127.0.0.1"' "$root/etc/default/ctl-mqtt-console" \
  || fail "/etc/default/ctl-mqtt-console does not trust the gate's proxy on loopback"

step "wb-diag-collect's drop-in: our units' logs and configs in Wiren Board's support archive"
dropin="$root/lib/systemd/system/wb-diag-collect.service.d/ctl-mqtt.conf"
[ -f "$dropin" ] || fail "no drop-in for wb-diag-collect.service"
[ -x "$root/usr/lib/ctl-mqtt/wb-diag-collect-config" ] || fail "wb-diag-collect-config is not installed executable"
grep -qx 'ExecStartPre=+-/usr/lib/ctl-mqtt/wb-diag-collect-config' "$dropin" || fail "the drop-in does not write the copy first"
# The copy is bound only if it exists ("-"): without it the archive is collected as if we were not here.
grep -qx 'BindReadOnlyPaths=-/run/ctl-mqtt-diag/wb-diag-collect.conf:/usr/share/wb-diag-collect/wb-diag-collect.conf' "$dropin" ||
  fail "the drop-in does not bind the copy over wb-diag-collect's configuration, or not optionally"

step "ctl-mqtt-adc --print-schema"
"$root/usr/bin/ctl-mqtt-adc" --print-schema >"$root/schema.out"
cmp -s "$root/schema.out" "$repo/schemas/ctl-mqtt-adc.schema.json" || fail "--print-schema differs from schemas/ctl-mqtt-adc.schema.json"

step "ctl-mqtt-gpio -j (installed conffile, no board; then the example board)"
gpio_j() { "$root/usr/bin/ctl-mqtt-gpio" -j -c "$root/etc/ctl-mqtt-gpio.conf" --system-config-dir "$root/var/lib/ctl-mqtt-gpio/conf.d" </dev/null; }
out=$(gpio_j)
[ "$out" = '{"device_name":"Discrete I/O","max_unchanged_interval":-1,"channels":[]}' ] || fail "-j printed: $out"
cp "$root/usr/share/ctl-mqtt-gpio/boards/example.conf" "$root/var/lib/ctl-mqtt-gpio/conf.d/system.conf"
out=$(gpio_j)
case "$out" in *'{"name":"A1_IN","direction":"input"}'*) ;; *) fail "-j with the example board printed: $out" ;; esac
out=$("$root/usr/bin/ctl-mqtt-adc" -j -c "$root/etc/ctl-mqtt-adc.conf" --system-config-dir "$root/var/lib/ctl-mqtt-adc/conf.d" </dev/null)
[ "$out" = '{"device_name":"ADCs","max_unchanged_interval":60,"iio_channels":[]}' ] || fail "adc -j printed: $out"

step "--generate-board: nothing without the device-tree node; the board file and the editor schema from a small tree"
dt="$root/dt"
out=$("$root/usr/bin/ctl-mqtt-gpio" --generate-board --sysfs-root "$dt" --system-config-dir "$dt/gpio-conf.d")
[ "$out" = "ctl-mqtt-gpio: no device-tree node $dt/sys/firmware/devicetree/base/wirenboard/gpios: no board file written" ] || fail "--generate-board without a tree printed: $out"
[ ! -e "$dt/gpio-conf.d" ] || fail "--generate-board without a tree wrote $dt/gpio-conf.d"
# A1_IN: line 13 of the chip with phandle 0x10 (gpiochip0), active low; cells are big-endian.
node_dir="$dt/sys/firmware/devicetree/base/wirenboard/gpios/A1_IN"
mkdir -p "$node_dir" "$dt/sys/bus/gpio/devices/gpiochip0/of_node" "$dt/confed"
printf '\0\0\0\020\0\0\0\015\0\0\0\001' >"$node_dir/io-gpios"
: >"$node_dir/input"
printf '\0\0\0\020' >"$dt/sys/bus/gpio/devices/gpiochip0/of_node/phandle"
"$root/usr/bin/ctl-mqtt-gpio" --generate-board --sysfs-root "$dt" --system-config-dir "$dt/gpio-conf.d" --editor-schema-dir "$dt/confed" >/dev/null \
  || fail "--generate-board on a small tree failed"
grep -qF '{ "name": "A1_IN", "gpio": { "chip": "/dev/gpiochip0", "offset": 13 }, "direction": "input", "inverted": true }' "$dt/gpio-conf.d/system.conf" \
  || fail "--generate-board wrote: $(cat "$dt/gpio-conf.d/system.conf")"
node -e "const s = require('$dt/confed/ctl-mqtt-gpio.schema.json'); if (JSON.stringify(s.definitions.system_input.properties.name.enum) !== '[\"A1_IN\"]') process.exit(1)" \
  || fail "the editor schema copy does not list the board's input"

version=$(node -p "require('$repo/package.json').version")
[ "$("$root/usr/bin/ctl-mqtt-gpio" --version)" = "ctl-mqtt-gpio $version" ] || fail "--version"
[ "$("$root/usr/bin/ctl-mqtt-console" --version)" = "ctl-mqtt-console $version" ] || fail "ctl-mqtt-console --version"
[ "$("$root/usr/bin/ctl-mqtt" --version)" = "ctl-mqtt $version" ] || fail "ctl-mqtt --version"

step "ctl-mqtt-console: refuses a LAN address without a password; serves its page from the package on loopback"
rc=0
"$root/usr/bin/ctl-mqtt-console" --listen 0.0.0.0 --password-file "$root/no-password" \
  --schema "$root/usr/share/ctl-mqtt-gpio/ctl-mqtt-gpio.schema.json" 2>"$root/console.err" || rc=$?
[ "$rc" = 2 ] && grep -q 'needs a password' "$root/console.err" || fail "ctl-mqtt-console --listen 0.0.0.0 without a password: exit $rc, $(cat "$root/console.err")"
console_port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
"$root/usr/bin/ctl-mqtt-console" --port "$console_port" --password-file "$root/no-password" --broker "unix://$root/no-broker.sock" \
  --schema "$root/usr/share/ctl-mqtt-gpio/ctl-mqtt-gpio.schema.json" --schema "$root/usr/share/ctl-mqtt-adc/ctl-mqtt-adc.schema.json" 2>"$root/console.log" &
pids+=($!)
page=""
for _ in $(seq 100); do
  page=$(node -e "fetch('http://127.0.0.1:$console_port/assets/config-fields.js').then(r=>r.text()).then(t=>console.log(t.length)).catch(()=>{})" 2>/dev/null) || true
  [ -n "$page" ] && break
  sleep 0.1
done
[ -n "$page" ] && [ "$page" -gt 1000 ] || fail "ctl-mqtt-console did not serve the configuration page's script: $(tail -n 3 "$root/console.log")"
kill -TERM "${pids[0]}"; wait "${pids[0]}" || fail "ctl-mqtt-console did not stop cleanly: $(tail -n 3 "$root/console.log")"
pids=()

step "every command's bundle loads whole (imported, it does not run); koffi loads its $(uname -m) binary from beside them"
lib="$root/usr/lib/ctl-mqtt"
node --input-type=module -e "
  import { createRequire } from 'node:module';
  for (const binary of ['ctl-mqtt-gpio', 'ctl-mqtt-adc', 'ctl-mqtt-console', 'ctl-mqtt']) await import('$lib/dist/bin/' + binary + '.js');
  createRequire('$lib/dist/bin/ctl-mqtt-gpio.js')('koffi').load('libc.so.6');
" || fail "a bundle of the installed copy does not load"

step "the installed services run (no broker yet: they retry), reload on SIGHUP and stop on SIGTERM with exit 0"
mkdir "$root/sim"
no_broker=(--broker "unix://$root/sim/no-broker.sock")
"$root/usr/bin/ctl-mqtt-gpio" -c "$root/etc/ctl-mqtt-gpio.conf" --system-config-dir "$root/var/lib/ctl-mqtt-gpio/conf.d" \
  --gpio-sim "$root/sim" --state-file "$root/sim/state.json" "${no_broker[@]}" 2>"$root/gpio.log" &
pids+=($!)
"$root/usr/bin/ctl-mqtt-adc" -c "$root/etc/ctl-mqtt-adc.conf" --system-config-dir "$root/var/lib/ctl-mqtt-adc/conf.d" \
  --sysfs-root "$root/sim" "${no_broker[@]}" 2>"$root/adc.log" &
pids+=($!)
# SIGTERM only once each service says it runs (its signal handlers are installed by then).
wait_log "$root/gpio.log" 'started:' || fail "ctl-mqtt-gpio did not start within 30 s: $(tail -n 3 "$root/gpio.log")"
wait_log "$root/adc.log" 'channel(s), device' || fail "ctl-mqtt-adc did not start within 30 s: $(tail -n 3 "$root/adc.log")"
sleep 0.2
kill -HUP "${pids[0]}" "${pids[1]}"
for name in gpio adc; do
  wait_log "$root/$name.log" 'configuration reloaded' || fail "ctl-mqtt-$name did not reload on SIGHUP: $(tail -n 3 "$root/$name.log")"
done
for i in 0 1; do
  name=$([ "$i" = 0 ] && echo gpio || echo adc)
  kill -TERM "${pids[$i]}" 2>/dev/null || true
  rc=0
  wait "${pids[$i]}" || rc=$?
  [ "$rc" = 0 ] || fail "ctl-mqtt-$name exited $rc: $(tail -n 3 "$root/$name.log")"
done
pids=()

step "the one process runs both services (no broker: they retry); a reload reaches only the one whose file changed; SIGTERM: exit 0"
cp "$root/etc/ctl-mqtt-gpio.conf" "$root/sim/gpio.conf"
cp "$root/etc/ctl-mqtt-adc.conf" "$root/sim/adc.conf"
"$root/usr/bin/ctl-mqtt" --gpio -c "$root/sim/gpio.conf" --system-config-dir "$root/var/lib/ctl-mqtt-gpio/conf.d" \
  --gpio-sim "$root/sim" --state-file "$root/sim/state-host.json" "${no_broker[@]}" \
  --adc -c "$root/sim/adc.conf" --system-config-dir "$root/var/lib/ctl-mqtt-adc/conf.d" --sysfs-root "$root/sim" "${no_broker[@]}" \
  2>"$root/host.log" &
pids+=($!)
wait_log "$root/host.log" '\[ctl:gpio\] started:' '\[ctl:adc\] .*channel(s), device' \
  || fail "ctl-mqtt did not start GPIO and ADC within 30 s: $(tail -n 3 "$root/host.log")"
sed -i 's/"device_name": *"ADCs"/"device_name": "Analog inputs"/' "$root/sim/adc.conf"
grep -q 'Analog inputs' "$root/sim/adc.conf" || fail "could not edit the ADC config copy"
kill -HUP "${pids[0]}"
wait_log "$root/host.log" '\[ctl:adc\] configuration reloaded' || fail "ctl-mqtt did not reload ADC: $(tail -n 3 "$root/host.log")"
grep -q '\[ctl:gpio\] configuration reloaded' "$root/host.log" && fail "ctl-mqtt reloaded GPIO, whose file did not change"
kill -TERM "${pids[0]}"
rc=0
wait "${pids[0]}" || rc=$?
[ "$rc" = 0 ] || fail "ctl-mqtt exited $rc: $(tail -n 3 "$root/host.log")"
pids=()

step "an option set in /etc/default/ctl-mqtt-gpio reaches the service, as systemd runs the unit's ExecStart"
printf 'CTL_MQTT_OPTS="%s"\n' "-T site7 --device-id cellar --gpio-sim $root/sim --state-file $root/sim/state-opts.json \
--broker unix://$root/sim/no-broker.sock -c $root/etc/ctl-mqtt-gpio.conf --system-config-dir $root/var/lib/ctl-mqtt-gpio/conf.d" \
  >>"$root/etc/default/ctl-mqtt-gpio"
# systemd's EnvironmentFile= and an unquoted $VAR in ExecStart=: the value split at whitespace.
exec_start=$(sed -n 's/^ExecStart=//p' "$root/usr/lib/ctl-mqtt/systemd/separate/ctl-mqtt-gpio.service")
(
  set -a; . "$root/etc/default/ctl-mqtt-gpio"; set +a
  read -ra words <<<"${exec_start//\$CTL_MQTT_OPTS/$CTL_MQTT_OPTS}"
  exec "$root${words[0]}" "${words[@]:1}"
) 2>"$root/opts.log" &
pids+=($!)
wait_log "$root/opts.log" 'started:' || true
grep -q 'started: .*device site7/devices/cellar' "$root/opts.log" || fail "CTL_MQTT_OPTS did not reach ctl-mqtt-gpio: $(tail -n 3 "$root/opts.log")"
kill -TERM "${pids[0]}"
wait "${pids[0]}" || fail "ctl-mqtt-gpio started with CTL_MQTT_OPTS did not stop cleanly: $(tail -n 3 "$root/opts.log")"
pids=()
# The one process reads the same file itself (one unit cannot give three services three CTL_MQTT_OPTS).
CTL_MQTT_SERVICES=gpio "$root/usr/bin/ctl-mqtt" --defaults "$root/etc/default" 2>"$root/host-opts.log" &
pids+=($!)
wait_log "$root/host-opts.log" 'started:' || true
grep -q 'started: .*device site7/devices/cellar' "$root/host-opts.log" || fail "CTL_MQTT_OPTS did not reach GPIO in ctl-mqtt: $(tail -n 3 "$root/host-opts.log")"
kill -TERM "${pids[0]}"
wait "${pids[0]}" || fail "ctl-mqtt --defaults did not stop cleanly: $(tail -n 3 "$root/host-opts.log")"
pids=()

step "ctl-mqtt-console's own unit (separate processes): sandboxed, writable only the two config files and its state directory"
console_unit="$root/usr/lib/ctl-mqtt/systemd/separate/ctl-mqtt-console.service"
unit_value() { grep -E "^$1=" "$console_unit" | tail -1 | cut -d= -f2-; }
[ "$(unit_value ProtectSystem)" = strict ] || fail "ctl-mqtt-console.service: ProtectSystem=$(unit_value ProtectSystem), expected strict"
[ "$(grep -E '^ReadWritePaths=' "$console_unit" | cut -d= -f2- | tr '\n' ' ')" = "-/etc/ctl-mqtt-gpio.conf -/etc/ctl-mqtt-adc.conf " ] \
  || fail "ctl-mqtt-console.service: ReadWritePaths must name the two config files only: $(grep -E '^ReadWritePaths=' "$console_unit")"
[ "$(unit_value StateDirectory)" = ctl-mqtt-console ] || fail "ctl-mqtt-console.service: StateDirectory=$(unit_value StateDirectory)"
# The GPIO line listing runs in its sandbox: the chips must be there (PrivateDevices= and
# ProtectClock= would each hide them), and nothing else but the pseudo devices.
for setting in PrivateDevices=yes ProtectClock=yes; do
  grep -qxF "$setting" "$console_unit" && fail "ctl-mqtt-console.service has $setting: /dev/gpiochip* is hidden from ctl-mqtt-gpio --list-lines"
done
for setting in NoNewPrivileges=yes 'CapabilityBoundingSet=' PrivateTmp=yes DevicePolicy=closed 'DeviceAllow=char-gpiochip rw' ProtectHome=yes ProtectKernelTunables=yes \
  ProtectKernelModules=yes ProtectControlGroups=yes RestrictNamespaces=yes RestrictSUIDSGID=yes LockPersonality=yes; do
  grep -qxF "$setting" "$console_unit" || fail "ctl-mqtt-console.service lacks $setting"
done

if command -v systemd-analyze >/dev/null 2>&1; then
  step "systemd-analyze verify"
  # Verified as host units, with ExecStart(Pre) pointing into the root (verify checks the binary).
  mkdir "$root/units"
  # The one process with its handles, then the separate units (each set verified on its own: they
  # carry the same names).
  mkdir "$root/units/separate"
  for unit in ctl-mqtt ctl-mqtt-gpio ctl-mqtt-adc ctl-mqtt-console; do
    sed -E "s#^(ExecStart|ExecStartPre)=/usr/#\1=$root/usr/#" "$root/lib/systemd/system/$unit.service" >"$root/units/$unit.service"
  done
  for unit in ctl-mqtt-gpio ctl-mqtt-adc ctl-mqtt-console; do
    sed -E "s#^(ExecStart|ExecStartPre)=/#\1=$root/#" "$root/usr/lib/ctl-mqtt/systemd/separate/$unit.service" >"$root/units/separate/$unit.service"
  done
  # wb-diag-collect.service as its package ships it (ExecStart aside), with our drop-in.
  mkdir -p "$root/units/wb-diag-collect.service.d"
  printf '%s\n' '[Unit]' 'Description=support archive' '[Service]' 'Type=simple' 'ExecStart=/bin/true -s diag_archive' \
    >"$root/units/wb-diag-collect.service"
  sed -E "s#^ExecStartPre=\+-/#ExecStartPre=+-$root/#" "$root/lib/systemd/system/wb-diag-collect.service.d/ctl-mqtt.conf" \
    >"$root/units/wb-diag-collect.service.d/ctl-mqtt.conf"
  complaints=$(cd "$root/units" && SYSTEMD_UNIT_PATH="$root/units:" systemd-analyze verify --man=no ./wb-diag-collect.service 2>&1) ||
    fail "systemd-analyze verify wb-diag-collect.service with ctl-mqtt's drop-in: $complaints"
  [ -z "$complaints" ] || fail "systemd-analyze verify wb-diag-collect.service with ctl-mqtt's drop-in: $complaints"
  # It exits 0 on unknown keys and bad values, but says so: any output is a failure.
  for set in "$root/units" "$root/units/separate"; do
    complaints=$(cd "$set" && systemd-analyze verify --man=no ./ctl-mqtt-gpio.service ./ctl-mqtt-adc.service ./ctl-mqtt-console.service \
      $([ -e ctl-mqtt.service ] && echo ./ctl-mqtt.service) 2>&1) || fail "systemd-analyze verify: $complaints"
    [ -z "$complaints" ] || fail "systemd-analyze verify: $complaints"
  done
fi

step "an upgrade from a version that shipped the schemas in /usr/share/wb-mqtt-confed removes that copy"
dpkg_root --purge ctl-mqtt >/dev/null
older="$root/older-package"
mkdir -p "$older/DEBIAN" "$older/usr/share/wb-mqtt-confed/schemas"
cp "$repo/schemas/ctl-mqtt-gpio.schema.json" "$repo/schemas/ctl-mqtt-adc.schema.json" "$older/usr/share/wb-mqtt-confed/schemas/"
printf '%s\n' 'Package: ctl-mqtt' 'Version: 0.0.1' 'Architecture: all' 'Maintainer: ctl-mqtt <ctl-mqtt@example.invalid>' \
  'Description: an older ctl-mqtt that shipped the config editor schemas' >"$older/DEBIAN/control"
dpkg-deb --build --root-owner-group "$older" "$root/older.deb" >/dev/null
dpkg_root --install "$root/older.deb" >/dev/null
[ -e "$root/usr/share/wb-mqtt-confed/schemas/ctl-mqtt-gpio.schema.json" ] || fail "the older package did not install its schema copy"
dpkg_root --install "$deb" >/dev/null
for svc in gpio adc; do
  [ ! -e "$root/usr/share/wb-mqtt-confed/schemas/ctl-mqtt-$svc.schema.json" ] || fail "the upgrade left /usr/share/wb-mqtt-confed/schemas/ctl-mqtt-$svc.schema.json"
done

step "an upgrade from the separate units of 0.1 moves the services the admin had enabled into the one process"
dpkg_root --purge ctl-mqtt >/dev/null
older="$root/older-units"
mkdir -p "$older/DEBIAN" "$older/lib/systemd/system"
for svc in gpio adc console; do
  # What 0.1 shipped: each service a process of its own, wanted by multi-user.target.
  printf '[Unit]\nDescription=ctl-mqtt-%s 0.1\n[Service]\nExecStart=/usr/bin/ctl-mqtt-%s\n[Install]\nWantedBy=multi-user.target\n' \
    "$svc" "$svc" >"$older/lib/systemd/system/ctl-mqtt-$svc.service"
done
printf '%s\n' 'Package: ctl-mqtt' 'Version: 0.1.0' 'Architecture: all' 'Maintainer: ctl-mqtt <ctl-mqtt@example.invalid>' \
  'Description: ctl-mqtt with separate units' >"$older/DEBIAN/control"
dpkg-deb --build --root-owner-group "$older" "$root/older-units.deb" >/dev/null
dpkg_root --install "$root/older-units.deb" >/dev/null
# The admin had ADC off (no analog inputs on this board).
systemctl --root="$root" enable ctl-mqtt-gpio.service ctl-mqtt-console.service >/dev/null 2>&1
dpkg_root --install "$deb" >/dev/null
[ -L "$root/etc/systemd/system/multi-user.target.wants/ctl-mqtt.service" ] || fail "the upgrade did not enable ctl-mqtt.service"
for unit in ctl-mqtt-gpio ctl-mqtt-console; do
  [ ! -e "$root/etc/systemd/system/multi-user.target.wants/$unit.service" ] || fail "the upgrade left $unit.service enabled on its own"
done
grep -qx 'Environment="CTL_MQTT_SERVICES=gpio console"' "$root/etc/systemd/system/ctl-mqtt.service.d/services-enabled-before.conf" \
  || fail "the upgrade did not keep the services the admin had enabled: $(cat "$root/etc/systemd/system/ctl-mqtt.service.d/"* 2>&1)"

step "beside the originals: the install says so; the GPIO service on wb-gpio waits until wb-mqtt-gpio is disabled"
mkdir -p "$root/lib/systemd/system"
printf '[Unit]\nDescription=wb-mqtt-gpio (stand-in)\n[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n' \
  >"$root/lib/systemd/system/wb-mqtt-gpio.service"
systemctl --root="$root" enable wb-mqtt-gpio.service >/dev/null 2>&1
[ -L "$root/etc/systemd/system/multi-user.target.wants/wb-mqtt-gpio.service" ] || fail "could not enable the stand-in wb-mqtt-gpio"
note=$(dpkg_root --install "$deb" 2>&1 >/dev/null)
echo "$note" | grep -q "ctl-mqtt: wb-mqtt-gpio is enabled or running: ctl-mqtt's gpio service waits" \
  || fail "the install did not say that the GPIO service waits for wb-mqtt-gpio: $note"
echo "$note" | grep -q 'wb-mqtt-adc' && fail "the install spoke of wb-mqtt-adc, which is not there: $note"
"$root/usr/bin/ctl-mqtt" --gpio -c "$root/etc/ctl-mqtt-gpio.conf" --system-config-dir "$root/var/lib/ctl-mqtt-gpio/conf.d" \
  --gpio-sim "$root/sim" --state-file "$root/sim/state-beside.json" --device-id wb-gpio --sysfs-root "$root" "${no_broker[@]}" \
  2>"$root/beside.log" &
pids+=($!)
wait_log "$root/beside.log" 'wb-mqtt-gpio is enabled on this controller and publishes wb-gpio too' \
  || fail "ctl-mqtt did not hold the GPIO service back: $(tail -n 3 "$root/beside.log")"
grep -q 'started:' "$root/beside.log" && fail "the GPIO service started beside wb-mqtt-gpio"
systemctl --root="$root" disable wb-mqtt-gpio.service >/dev/null 2>&1
wait_log "$root/beside.log" '\[ctl:gpio\] started:' || fail "the GPIO service did not start once wb-mqtt-gpio was disabled: $(tail -n 3 "$root/beside.log")"
kill -TERM "${pids[0]}"
rc=0
wait "${pids[0]}" || rc=$?
[ "$rc" = 0 ] || fail "ctl-mqtt exited $rc: $(tail -n 3 "$root/beside.log")"
pids=()

step "purge"
# A copy --generate-board wrote for the config editor goes with the package.
mkdir -p "$root/var/lib/wb-mqtt-confed/schemas"
cp "$dt/confed/ctl-mqtt-gpio.schema.json" "$root/var/lib/wb-mqtt-confed/schemas/"
dpkg_root --purge ctl-mqtt >/dev/null
for f in usr/lib/ctl-mqtt usr/bin/ctl-mqtt-gpio etc/ctl-mqtt-gpio.conf etc/default/ctl-mqtt-gpio var/lib/ctl-mqtt-gpio \
  usr/share/wb-mqtt-confed/schemas/ctl-mqtt-adc.schema.json var/lib/wb-mqtt-confed/schemas/ctl-mqtt-gpio.schema.json \
  etc/systemd/system/multi-user.target.wants/ctl-mqtt-gpio.service lib/systemd/system/ctl-mqtt-adc.service \
  etc/systemd/system/multi-user.target.wants/ctl-mqtt.service etc/default/ctl-mqtt usr/bin/ctl-mqtt \
  etc/systemd/system/ctl-mqtt.service.d/services-enabled-before.conf; do
  [ ! -e "$root/$f" ] && [ ! -L "$root/$f" ] || fail "$f is left after purge"
done
step "ok"
