#!/usr/bin/env bash
# Runs ctl-mqtt on Debian 12's own Node.js 18 (scripts/node18/install.sh) after `npm run build`:
#  1. the unit and integration tests (not the browser's), among them each service on the
#     simulated board against mosquitto, the three binaries, the demo and the Debian package;
#  2. `--version` of the three binaries, `-j` of the example configs and `-J` of that;
#  3. the demo for 20 s: it must serve its console page, then stop cleanly on SIGINT (exit 0).
# The programs of 2 and 3 may not write a warning on stderr (an API newer than 18 would).
# Prints each step as it runs; exits non-zero at the first failure, saying which.
set -euo pipefail
cd "$(dirname "$0")/../.."
node18=scripts/node18/node
log() { printf 'node18: %s\n' "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
[ -d dist/test/unit ] || fail "run npm run build first"

bash scripts/node18/install.sh >/dev/null
log "using Debian's node $($node18 --version) ($($node18 -p 'process.execPath'))"
work="$(mktemp -d "${TMPDIR:-/tmp}/ctl-node18.XXXXXX")"
demo_pid=
cleanup() {
  [ -n "$demo_pid" ] && kill "$demo_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# stderr of a step must be free of warnings (Node prints "(node:PID) XxxWarning: ...").
no_warning() { # file what
  if grep -E '(Experimental|Deprecation)?Warning:|\(node:[0-9]+\)' "$1" >&2; then fail "$2 wrote a warning on stderr (above)"; fi
}

step() { log "+ $*"; }

# Every unit and integration test file but those that drive a browser (they import the browser
# helper: playwright-core refuses Node < 20; the pages are tested on the machine's node). They
# check the product's own stderr.
mapfile -t files < <(find dist/test/unit dist/test/integration -name '*.test.js' ! -name '*.hil.test.js' | sort \
  | xargs grep -L "helpers/browser\.js")
step "unit and integration tests (${#files[@]} files; services on the simulated board with mosquitto, the binaries, the demo, the package)"
$node18 scripts/run-tests.mjs "${files[@]}" >"$work/tests.out" 2>&1 || { grep -B2 -A25 '^not ok' "$work/tests.out" >&2; fail "tests on Node 18 (above)"; }
grep -E '^# (tests|pass|fail|skipped) ' "$work/tests.out" | tr '\n' ' ' >&2; echo >&2

for bin in gpio adc console; do
  step "ctl-mqtt-$bin --version"
  $node18 "dist/bin/ctl-mqtt-$bin.js" --version 2>"$work/v.err" || { cat "$work/v.err" >&2; fail "ctl-mqtt-$bin --version"; }
  no_warning "$work/v.err" "ctl-mqtt-$bin --version"
done

for kind in gpio adc; do
  conf=(-c "examples/ctl-mqtt-$kind.conf" --system-config-dir "examples/board/ctl-mqtt-$kind/conf.d")
  step "ctl-mqtt-$kind ${conf[*]} -j, and -J of that"
  $node18 "dist/bin/ctl-mqtt-$kind.js" "${conf[@]}" -j >"$work/$kind.json" 2>"$work/j.err" || { cat "$work/j.err" >&2; fail "ctl-mqtt-$kind -j"; }
  no_warning "$work/j.err" "ctl-mqtt-$kind -j"
  $node18 "dist/bin/ctl-mqtt-$kind.js" "${conf[@]}" -J <"$work/$kind.json" >"$work/$kind.conf" 2>"$work/J.err" || { cat "$work/J.err" >&2; fail "ctl-mqtt-$kind -J"; }
  no_warning "$work/J.err" "ctl-mqtt-$kind -J"
  [ -s "$work/$kind.conf" ] || fail "ctl-mqtt-$kind -J printed nothing"
done

free_port() { $node18 -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
port=$(free_port); ws_port=$(free_port); console_port=$(free_port)
step "demo for 20 s (broker $port, WebSocket $ws_port, console $console_port), then SIGINT"
$node18 dist/src/demo/main.js --port "$port" --ws-port "$ws_port" --console-port "$console_port" >"$work/demo.out" 2>"$work/demo.err" &
demo_pid=$!
served=
for _ in $(seq 1 200); do
  kill -0 "$demo_pid" 2>/dev/null || break
  if $node18 -e 'require("http").get(process.argv[1], (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on("error", () => process.exit(1))' \
      "http://127.0.0.1:$console_port/" 2>/dev/null; then served=1; break; fi
  sleep 0.1
done
[ -n "$served" ] || { cat "$work/demo.err" >&2; fail "the demo's console never answered on port $console_port"; }
sleep 20
kill -0 "$demo_pid" 2>/dev/null || { cat "$work/demo.err" >&2; fail "the demo stopped on its own"; }
kill -INT "$demo_pid"
rc=0; wait "$demo_pid" || rc=$?
demo_pid=
[ "$rc" = 0 ] || { tail -n 20 "$work/demo.out" "$work/demo.err" >&2; fail "the demo exited $rc on SIGINT"; }
no_warning "$work/demo.err" "the demo"
log "ok: ctl-mqtt runs on Node.js $($node18 --version)"
