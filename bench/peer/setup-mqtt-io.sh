#!/usr/bin/env bash
# Sets up the peer of the side-by-side bench: a Python virtual environment with mqtt-io 2.6.0 (the
# newest release of its repository), the pure-Python `gpiod` 1.5.4 package its `gpiod` module
# calls (gpiod.chip, gpiod.line_request: Debian's python3-libgpiod has another API, gpiod.Chip,
# and no package metadata, so mqtt-io cannot use it) and confp 0.4.1.
#   CTL_PEER_SRC=DIR bash bench/peer/setup-mqtt-io.sh
# CTL_PEER_SRC: a directory with the three source trees (mqtt-io-2.6.0, python3-gpiod-1.5.4,
# confp-0.4.1) or their .tar.gz files, for a machine that cannot reach the Python package index;
# without it, the three come from the package index. Their dependencies always come from the
# index pip is configured for (when that configuration names only local file:// indexes, only
# those are asked, so pip does not wait on an unreachable default index).
# The environment is made with Debian's /usr/bin/python3 and --system-site-packages (Cerberus
# from python3-cerberus), in a place the HIL guest sees: the guest shares the host root but has
# tmpfs over /root, /tmp, /run and /var/tmp. Default: /var/cache/ctl-mqtt/peer/mqtt-io-2.6.0 as
# root, ~/.cache/ctl-mqtt/peer/mqtt-io-2.6.0 otherwise; CTL_PEER_VENV overrides it.
# Exit 0: ready; 77: it cannot be set up here (the reason on the last line, prefixed "peer:").
set -uo pipefail
MQTT_IO=2.6.0
GPIOD=1.5.4
CONFP=0.4.1
# mqtt-io's real run-time dependencies at versions known to work together (Jinja2 for confp).
# mqtt-io itself goes in with --no-deps: it pins docutils==0.18.1, which it never imports.
DEPS=(aiomqtt==2.5.1 paho-mqtt==2.1.0 backoff==2.2.1 PyYAML==6.0.3 typing-extensions==4.16.0 jinja2==3.1.6 markupsafe==3.0.3)
say() { printf 'peer: %s\n' "$*" >&2; }

if [ -n "${CTL_PEER_VENV:-}" ]; then
  VENV="$CTL_PEER_VENV"
elif [ "$(id -u)" = 0 ]; then
  VENV="/var/cache/ctl-mqtt/peer/mqtt-io-$MQTT_IO"
else
  VENV="${XDG_CACHE_HOME:-$HOME/.cache}/ctl-mqtt/peer/mqtt-io-$MQTT_IO"
fi
case "$VENV" in
  /root/* | /tmp/* | /run/* | /var/tmp/*)
    say "$VENV is hidden in the HIL guest (tmpfs over /root, /tmp, /run, /var/tmp): set CTL_PEER_VENV to another place"
    exit 77 ;;
esac

if [ "$(id -u)" = 0 ] && ! dpkg -s python3-venv python3-cerberus mosquitto >/dev/null 2>&1; then
  say "installing python3-venv python3-cerberus mosquitto (Debian)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv python3-cerberus mosquitto >/dev/null ||
    { say "apt-get install python3-venv python3-cerberus mosquitto failed"; exit 77; }
fi
/usr/bin/python3 -c 'import ensurepip, cerberus' 2>/dev/null ||
  { say "/usr/bin/python3 lacks venv or cerberus: apt-get install python3-venv python3-cerberus"; exit 77; }

# The three packages, from CTL_PEER_SRC's trees (tarballs unpacked into a temp dir) or the index.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -n "${CTL_PEER_SRC:-}" ]; then
  sources=()
  for tree in "mqtt-io-$MQTT_IO" "python3-gpiod-$GPIOD" "confp-$CONFP"; do
    if [ -d "$CTL_PEER_SRC/$tree" ]; then
      sources+=("$CTL_PEER_SRC/$tree")
    elif [ -f "$CTL_PEER_SRC/$tree.tar.gz" ]; then
      tar -xzf "$CTL_PEER_SRC/$tree.tar.gz" -C "$work" || { say "cannot unpack $CTL_PEER_SRC/$tree.tar.gz"; exit 77; }
      [ -d "$work/$tree" ] || { say "$CTL_PEER_SRC/$tree.tar.gz does not hold a folder $tree"; exit 77; }
      sources+=("$work/$tree")
    else
      say "CTL_PEER_SRC=$CTL_PEER_SRC has neither $tree nor $tree.tar.gz"
      exit 77
    fi
  done
  MQTT_IO_SRC="${sources[0]}"
  LIBS=("${sources[1]}" "${sources[2]}")
  from="source trees in $CTL_PEER_SRC"
else
  MQTT_IO_SRC="mqtt-io==$MQTT_IO"
  LIBS=("gpiod==$GPIOD" "confp==$CONFP")
  from="the Python package index"
fi

# pip's own configuration decides the index, except that local file:// indexes, when they are all
# it names, are given as the only ones.
IDX=()
mapfile -t urls < <(pip config list 2>/dev/null | sed -n "s/^[^=]*\.\(extra-\)\{0,1\}index-url='\(.*\)'$/\2/p" | tr ' ' '\n' | grep -v '^$')
if [ ${#urls[@]} -gt 0 ] && ! printf '%s\n' "${urls[@]}" | grep -qv '^file://'; then
  IDX=(--index-url "${urls[0]}")
  for u in "${urls[@]:1}"; do IDX+=(--extra-index-url "$u"); done
fi

ready() {
  "$VENV/bin/python" -c '
import importlib.metadata as m, gpiod, mqtt_io, pkg_resources
gpiod.chip; gpiod.line_request
assert m.version("mqtt-io") == "'"$MQTT_IO"'" and m.version("gpiod") == "'"$GPIOD"'"' 2>/dev/null
}

if ! ready; then
  if [ ! -x "$VENV/bin/python" ]; then
    mkdir -p "$(dirname "$VENV")" && /usr/bin/python3 -m venv --system-site-packages "$VENV" ||
      { say "/usr/bin/python3 -m venv $VENV failed"; exit 77; }
  fi
  say "installing mqtt-io $MQTT_IO, gpiod $GPIOD and confp $CONFP from $from into $VENV"
  log="$work/pip.log"
  pip() { "$VENV/bin/pip" install --disable-pip-version-check "${IDX[@]}" "$@" >>"$log" 2>&1; }
  if ! { pip "${DEPS[@]}" && pip "${LIBS[@]}" && pip --no-deps "$MQTT_IO_SRC"; }; then
    tail -n 3 "$log" >&2
    if grep -qiE 'name or service not known|temporary failure in name resolution|failed to establish a new connection' "$log"; then
      say "cannot install into $VENV: the Python package index is not reachable from this machine (set CTL_PEER_SRC to the source trees)"
    elif grep -qi 'no matching distribution' "$log"; then
      say "cannot install into $VENV: no package index reachable from here has a package it needs (No matching distribution, above); CTL_PEER_SRC can give the source trees"
    else
      say "cannot install into $VENV: pip install failed (above)"
    fi
    exit 77
  fi
  ready || { say "mqtt_io or the gpiod package with gpiod.chip does not import in $VENV"; exit 77; }
fi
say "ready: $VENV (mqtt-io $MQTT_IO, gpiod $GPIOD, confp $CONFP, Python $("$VENV/bin/python" -c 'import platform; print(platform.python_version())'))"
