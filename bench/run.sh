#!/usr/bin/env bash
# The one benchmark command: builds dist/parkd, makes sure wrk is there, runs bench/bench.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
./build.sh
if ! command -v wrk >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq wrk
  else
    echo "bench: wrk is missing; install the Debian package wrk" >&2
    exit 1
  fi
fi
BUN=bun
command -v bun >/dev/null 2>&1 || BUN=.tools/node_modules/.bin/bun
exec "$BUN" bench/bench.ts "$@"
