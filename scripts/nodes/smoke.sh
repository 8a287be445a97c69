#!/usr/bin/env bash
# Runs ctl-mqtt (after `npm run build`) on another Node.js than the machine's:
#   scripts/nodes/smoke.sh [--tests] [--demo SECONDS] NODE
# NODE is the node to run: an official build (scripts/nodes/official.sh prints its path) or
# Debian 12's own (scripts/node18/node). What runs, each step printed as it starts:
#  1. with --tests: the unit and integration tests but the browser's (playwright-core refuses
#     Node.js < 20; the pages are tested on the machine's node), among them each service on the
#     simulated board against mosquitto, the four binaries, the demo and the Debian package;
#  2. `--version` of the four binaries, `-j` of the example configs and `-J` of that;
#  3. the demo (the one process, `ctl-mqtt --gpio ... --adc ...`, with the example configs on the
#     simulated board, the embedded broker and the console) for SECONDS (default 20): it must
#     serve its console page and report both services running, then stop cleanly on SIGINT (exit 0).
# The programs of 2 and 3 may not write a warning on stderr (an API a version lacks, or one it
# deprecates, would). Exits non-zero at the first failure, saying which.
set -euo pipefail
cd "$(dirname "$0")/../.."
tests=
demo_seconds=20
while [ $# -gt 1 ]; do
  case "$1" in
    --tests) tests=1; shift ;;
    --demo) demo_seconds="$2"; shift 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: smoke.sh [--tests] [--demo SECONDS] NODE (got: $*)" >&2; exit 2; }
node="$1"
version="$("$node" --version)"
log() { printf 'node %s: %s\n' "$version" "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
[ -d dist/test/unit ] || fail "run npm run build first"

started=$SECONDS
log "using $node ($("$node" -p 'process.execPath'))"
work="$(mktemp -d "${TMPDIR:-/tmp}/ctl-smoke.XXXXXX")"
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

if [ -n "$tests" ]; then
  # Every unit and integration test file but those that drive a browser (they import the browser
  # helper). They check the product's own stderr.
  mapfile -t files < <(find dist/test/unit dist/test/integration -name '*.test.js' ! -name '*.hil.test.js' | sort \
    | xargs grep -L "helpers/browser\.js")
  step "unit and integration tests (${#files[@]} files; services on the simulated board with mosquitto, the binaries, the demo, the package)"
  tests_started=$SECONDS
  "$node" scripts/run-tests.mjs "${files[@]}" >"$work/tests.out" 2>&1 || { grep -B2 -A25 '^not ok' "$work/tests.out" >&2; fail "tests (above)"; }
  grep -E '^# (tests|pass|fail|skipped) ' "$work/tests.out" | tr '\n' ' ' >&2
  echo "in $((SECONDS - tests_started)) s" >&2
fi

for bin in ctl-mqtt ctl-mqtt-gpio ctl-mqtt-adc ctl-mqtt-console; do
  step "$bin --version"
  "$node" "dist/bin/$bin.js" --version >"$work/v.out" 2>"$work/v.err" || { cat "$work/v.err" >&2; fail "$bin --version"; }
  no_warning "$work/v.err" "$bin --version"
  grep -q "^$bin " "$work/v.out" || fail "$bin --version printed: $(head -c 200 "$work/v.out")"
done

for kind in gpio adc; do
  conf=(-c "examples/ctl-mqtt-$kind.conf" --system-config-dir "examples/board/ctl-mqtt-$kind/conf.d")
  step "ctl-mqtt-$kind ${conf[*]} -j, and -J of that"
  "$node" "dist/bin/ctl-mqtt-$kind.js" "${conf[@]}" -j >"$work/$kind.json" 2>"$work/j.err" || { cat "$work/j.err" >&2; fail "ctl-mqtt-$kind -j"; }
  no_warning "$work/j.err" "ctl-mqtt-$kind -j"
  "$node" "dist/bin/ctl-mqtt-$kind.js" "${conf[@]}" -J <"$work/$kind.json" >"$work/$kind.conf" 2>"$work/J.err" || { cat "$work/J.err" >&2; fail "ctl-mqtt-$kind -J"; }
  no_warning "$work/J.err" "ctl-mqtt-$kind -J"
  [ -s "$work/$kind.conf" ] || fail "ctl-mqtt-$kind -J printed nothing"
done

free_port() { "$node" -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
port=$(free_port); ws_port=$(free_port); console_port=$(free_port)
step "demo for $demo_seconds s (broker $port, WebSocket $ws_port, console $console_port), then SIGINT"
"$node" dist/src/demo/main.js --port "$port" --ws-port "$ws_port" --console-port "$console_port" >"$work/demo.out" 2>"$work/demo.err" &
demo_pid=$!
served=
for _ in $(seq 1 200); do
  kill -0 "$demo_pid" 2>/dev/null || break
  if "$node" -e 'require("http").get(process.argv[1], (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on("error", () => process.exit(1))' \
    "http://127.0.0.1:$console_port/" 2>/dev/null; then served=1; break; fi
  sleep 0.1
done
[ -n "$served" ] || { cat "$work/demo.err" >&2; fail "the demo's console never answered on port $console_port"; }
sleep "$demo_seconds"
kill -0 "$demo_pid" 2>/dev/null || { cat "$work/demo.err" >&2; fail "the demo stopped on its own"; }
# The one process runs both services; each says when it is connected to the broker.
for kind in gpio adc; do
  grep -q "^$kind: INFO: \[ctl:$kind:mqtt\] connected to " "$work/demo.out" || { tail -n 20 "$work/demo.out" "$work/demo.err" >&2; fail "ctl-mqtt-$kind never connected in the demo's process"; }
done
kill -INT "$demo_pid"
rc=0; wait "$demo_pid" || rc=$?
demo_pid=
[ "$rc" = 0 ] || { tail -n 20 "$work/demo.out" "$work/demo.err" >&2; fail "the demo exited $rc on SIGINT"; }
no_warning "$work/demo.err" "the demo"
log "ok in $((SECONDS - started)) s"
