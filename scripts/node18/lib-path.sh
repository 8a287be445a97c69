#!/usr/bin/env bash
# Prints the LD_LIBRARY_PATH for the Node.js prefix given as $1: its multiarch library folders.
set -euo pipefail
prefix="$1"
dirs=()
for d in "$prefix"/lib/*-linux-gnu* "$prefix"/usr/lib/*-linux-gnu*; do [ -d "$d" ] && dirs+=("$d"); done
(IFS=:; echo "${dirs[*]}")
