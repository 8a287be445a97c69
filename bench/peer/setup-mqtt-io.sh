#!/usr/bin/env bash
# Sets up the peer of the side-by-side bench: a Python virtual environment with mqtt-io 2.7.0 over
# Debian's python3-libgpiod (libgpiod 1.6, the 1.x Python API that mqtt-io's `gpiod` module uses:
# gpiod.Chip, Line.request, event_wait/event_read; libgpiod 2.x changed that API, so the 2.x
# binding from the package index would not do). The environment is made with Debian's
# /usr/bin/python3 and --system-site-packages, so the binding comes from the Debian package.
# The HIL guest sees the host root, so the environment made here runs there unchanged.
#   bash bench/peer/setup-mqtt-io.sh        (as root it installs the Debian packages first)
# Exit 0: ready; 77: it cannot be set up here (the reason on the last line, prefixed "peer:").
set -uo pipefail
VENV="${CTL_PEER_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/ctl-mqtt/peer/mqtt-io-2.7.0}"
VERSION=2.7.0
say() { printf 'peer: %s\n' "$*" >&2; }

if [ "$(id -u)" = 0 ] && ! dpkg -s python3-libgpiod python3-venv mosquitto >/dev/null 2>&1; then
  say "installing python3-libgpiod python3-venv mosquitto (Debian)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-libgpiod python3-venv mosquitto >/dev/null ||
    { say "apt-get install python3-libgpiod python3-venv mosquitto failed"; exit 77; }
fi
/usr/bin/python3 -c 'import gpiod; gpiod.Chip; gpiod.LINE_REQ_EV_BOTH_EDGES' 2>/dev/null ||
  { say "no libgpiod 1.x Python binding for /usr/bin/python3: apt-get install python3-libgpiod"; exit 77; }

if [ ! -x "$VENV/bin/python" ]; then
  /usr/bin/python3 -m venv --system-site-packages "$VENV" || { say "python3 -m venv failed (apt-get install python3-venv)"; exit 77; }
fi
if ! "$VENV/bin/python" -c 'import mqtt_io' 2>/dev/null; then
  say "pip install mqtt-io==$VERSION into $VENV"
  log="$(mktemp)"
  if ! "$VENV/bin/pip" install --disable-pip-version-check "mqtt-io==$VERSION" >"$log" 2>&1; then
    tail -n 3 "$log" >&2
    if grep -qiE 'name or service not known|temporary failure in name resolution|failed to establish a new connection' "$log"; then
      say "mqtt-io $VERSION cannot be installed: the Python package index is not reachable from this machine (name resolution fails)"
    elif grep -qi 'no matching distribution' "$log"; then
      say "mqtt-io $VERSION cannot be installed: no package index reachable from here has it (No matching distribution)"
    else
      say "mqtt-io $VERSION cannot be installed: pip install failed (see above)"
    fi
    rm -f "$log"
    exit 77
  fi
  rm -f "$log"
fi
"$VENV/bin/python" -c 'import mqtt_io, gpiod' || { say "mqtt_io or gpiod does not import in $VENV"; exit 77; }
say "ready: $VENV (mqtt-io $("$VENV/bin/pip" show mqtt-io 2>/dev/null | sed -n 's/^Version: //p'), python3-libgpiod $(dpkg-query -W -f '${Version}' python3-libgpiod 2>/dev/null))"
