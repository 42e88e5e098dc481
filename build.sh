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

# Debian packages some tests drive (chromium for /docs, promtool for metrics and alert rules):
# installed when missing and running as root; elsewhere those tests skip, except with CI=true.
apt_updated=""
ensure_debian_package() { # command package
  if command -v "$1" >/dev/null 2>&1 || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    return
  fi
  echo "build.sh: installing the Debian package $2 (for $1)" >&2
  if [ -z "$apt_updated" ]; then
    apt-get update -qq >&2
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >&2
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
  # Debian keeps initdb and postgres off PATH, in /usr/lib/postgresql/N/bin.
  if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then return; fi
  ensure_debian_package initdb postgresql
}

ensure_bun
ensure_packages

case "${1:-build}" in
  build)
    compile
    echo "built dist/parkd" >&2
    ;;
  test)
    compile
    echo "== type check" >&2
    bun x tsc --noEmit -p .
    echo "== lint" >&2
    bun x biome check .
    ensure_debian_package chromium chromium
    ensure_debian_package promtool prometheus
    ensure_debian_package openssl openssl
    ensure_postgres
    echo "== tests" >&2
    shift
    # Route tests record the statuses they see; with the whole suite run, each must be declared
    # in /openapi.json (test/contract/check-observed.ts).
    observed="$(mktemp -d)/observed-statuses.jsonl"
    PARKD_OBSERVED_FILE="$observed" PARKD_BIN="$PWD/dist/parkd" bun test "$@"
    if [ $# -eq 0 ]; then
      echo "== declared statuses" >&2
      bun test/contract/check-observed.ts "$observed"
    fi
    rm -rf "$(dirname "$observed")"
    ;;
  *)
    echo "usage: ./build.sh [build|test]" >&2
    exit 2
    ;;
esac
