#!/usr/bin/env bash
# Builds parkd on a machine that has only node and npm.
#   ./build.sh          install what is missing, compile dist/parkd
#   ./build.sh test     the same, then type check, lint and every test
set -euo pipefail
cd "$(dirname "$0")"

BUN_VERSION=1.4.4

ensure_bun() {
  if command -v bun >/dev/null 2>&1 && [ "$(bun --version)" = "$BUN_VERSION" ]; then
    return
  fi
  local local_bun=".tools/node_modules/.bin/bun"
  if [ ! -x "$local_bun" ] || [ "$("$local_bun" --version)" != "$BUN_VERSION" ]; then
    echo "build.sh: installing bun $BUN_VERSION into .tools/" >&2
    npm install --prefix .tools --no-save --no-package-lock --no-audit --no-fund "bun@$BUN_VERSION" >&2
  fi
  PATH="$PWD/.tools/node_modules/.bin:$PATH"
  export PATH
}

ensure_packages() {
  # The marker is newer than bun.lock once the lockfile's packages are installed.
  if [ ! -f node_modules/.parkd-installed ] || [ bun.lock -nt node_modules/.parkd-installed ]; then
    bun install --frozen-lockfile >&2
    touch node_modules/.parkd-installed
  fi
}

compile() {
  mkdir -p dist
  local commit
  commit="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  if [ -n "$(git status --porcelain 2>/dev/null)" ]; then commit="$commit-dirty"; fi
  # The checkpoint thread is a second entry point: a compiled binary carries its workers that way.
  # --smol: the engine collects garbage sooner; big answers (the 500-lot list) otherwise pushed
  # peak memory past 200 MB under load, at no measurable cost in throughput (bench/results.md).
  bun build src/main.ts src/platform/store/checkpoint-worker.ts --compile --bytecode --format=esm \
    --minify-whitespace --minify-syntax \
    --no-compile-autoload-dotenv --no-compile-autoload-bunfig \
    --compile-exec-argv=--smol \
    --define "BUILD_COMMIT=\"$commit\"" \
    --outfile dist/parkd >&2
}

# The central sync tests start a real PostgreSQL server; Debian's package brings the binaries and
# the `postgres` user the server runs as when the tests run as root.
ensure_postgres() {
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then return; fi
  if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then return; fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "build.sh: installing postgresql for the central sync tests" >&2
    apt-get update >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql >&2
  else
    echo "build.sh: PostgreSQL is missing: the central sync tests skip here (and fail under CI=true)" >&2
  fi
}

ensure_bun
ensure_packages

case "${1:-build}" in
  build)
    compile
    echo "built dist/parkd" >&2
    ;;
  test)
    ensure_postgres
    compile
    echo "== type check" >&2
    bun x tsc --noEmit -p .
    echo "== lint" >&2
    bun x biome check .
    echo "== tests" >&2
    shift
    PARKD_BIN="$PWD/dist/parkd" bun test "$@"
    ;;
  *)
    echo "usage: ./build.sh [build|test]" >&2
    exit 2
    ;;
esac
