#!/usr/bin/env bash
# `npm run test:hil`: the hardware-in-the-loop suite.
#  1. builds (once, cached) the guest kernel and initramfs (build.sh); when qemu or the kernel
#     sources are missing and we are not root, prints why and exits 0 (skipped);
#  2. compiles the project (npm run build) unless HIL_NO_BUILD=1;
#  3. boots the guest once and runs `node --test` on dist/test/**/*.hil.test.js inside it (files
#     one after another: they share the gpio-sim chips), and exits with its exit code.
# Arguments: substrings; only HIL files whose path contains one of them run.
# HIL_ARCH=armhf or arm64 runs it all in the 32- or 64-bit ARM guest instead (docs/hil.md).
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$HIL_SCRIPTS/../.."

started=$SECONDS
rc=0
bash "$HIL_SCRIPTS/build.sh" || rc=$?
if [ "$rc" = "$HIL_SKIP_RC" ]; then
  hil_log "SKIPPED: the HIL suite did not run (see above)"
  exit 0
elif [ "$rc" != 0 ]; then
  hil_log "building the guest failed"
  exit "$rc"
fi

[ "${HIL_NO_BUILD:-0}" = 1 ] || npm run --silent build

mapfile -t files < <(find dist/test -name '*.hil.test.js' | sort)
if [ $# -gt 0 ]; then
  selected=()
  for f in "${files[@]}"; do
    for s in "$@"; do case "$f" in *"$s"*) selected+=("$f"); break ;; esac; done
  done
  files=("${selected[@]}")
fi
if [ ${#files[@]} -eq 0 ]; then
  hil_log "no HIL test files found under dist/test${*:+ matching $*}"
  exit 1
fi

hil_log "running ${#files[@]} HIL file(s) in the guest"
rc=0
# The guest gets only what the command line says: pass on CTL_HIL_* settings of the tests (e.g.
# CTL_HIL_TIME_SCALE, how much longer than on the host the scenarios wait in the guest), and
# CTL_TEST_IN_HOST (the services the tests start run inside the one process, as the package runs them).
settings=$(env | grep -E '^(CTL_HIL_[A-Z0-9_]+|CTL_TEST_IN_HOST)=[A-Za-z0-9._/,-]*$' | tr '\n' ' ' || true)
"$HIL_SCRIPTS/run.sh" "env $settings node --test --test-concurrency=1 ${HIL_NODE_TEST_ARGS:-} ${files[*]}" || rc=$?
hil_log "HIL suite finished in $((SECONDS - started)) s (exit $rc)"
exit "$rc"
