#!/usr/bin/env bash
# Builds parkd on a machine that has only node and npm.
#   ./build.sh          install what is missing, compile dist/parkd
#   ./build.sh test     the same, then type check, lint and every test, then the release step
#   ./build.sh release  dist/release/: the binary for every target, .debs, SHA256SUMS, notes
#   ./build.sh release-test   the release step alone (release, then smoke tests of what it made)
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

# Debian packages some tests drive (chromium for /docs, promtool for metrics and alert rules,
# certutil to install the box's CA in a browser profile):
# installed when missing and running as root; elsewhere those tests skip, except with CI=true.
apt_updated=""
ensure_debian_package() { # command package
  if command -v "$1" >/dev/null 2>&1; then return; fi
  ensure_debian_package_always "$2"
}
ensure_debian_package_always() { # package (for what is not a command: a library, a sysroot)
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    return
  fi
  echo "build.sh: installing the Debian package $1" >&2
  if [ -z "$apt_updated" ]; then
    apt-get update -qq >&2
    apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$1" >&2
}

# What `parkd version` names as the target of a build for this machine.
host_target() {
  case "$(uname -m)" in
    x86_64) echo linux-x64 ;;
    aarch64 | arm64) echo linux-arm64 ;;
    *) echo "linux-$(uname -m)" ;;
  esac
}

# compile [OUTFILE [TARGET]]: dist/parkd for this machine, or OUTFILE for a Bun target
# (linux-x64, linux-x64-baseline, linux-arm64; Bun fetches that target's runtime once).
compile() {
  local out="${1:-dist/parkd}" target="${2:-}"
  mkdir -p "$(dirname "$out")"
  local commit
  commit="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  if [ -n "$(git status --porcelain 2>/dev/null)" ]; then commit="$commit-dirty"; fi
  # The store thread, the store's preparation and the check of the copy taken before an upgrade
  # are entry points too: a compiled binary carries its workers that way.
  # --smol: the engine collects garbage sooner; big answers (the 500-lot list) otherwise pushed
  # peak memory past 200 MB under load, at no measurable cost in throughput (bench/results.md).
  bun build src/main.ts src/platform/store/store-thread-worker.ts src/platform/store/preparation-worker.ts src/platform/store/copy-check-worker.ts --compile --bytecode --format=esm \
    ${target:+--target=bun-$target} \
    --minify-whitespace --minify-syntax \
    --no-compile-autoload-dotenv --no-compile-autoload-bunfig \
    --compile-exec-argv=--smol \
    --define "BUILD_COMMIT=\"$commit\"" \
    --define "BUILD_TARGET=\"${target:-$(host_target)}\"" \
    --outfile "$out" >&2
}

RELEASE_TARGETS="linux-x64 linux-x64-baseline linux-arm64"

# dist/release/: a binary per target, a .deb per Debian architecture, SHA256SUMS and the release
# notes (the version's section of docs/changelog.md; a version without one is not released).
release() {
  local version dir
  version="$(bun -e 'console.log(require("./package.json").version)')"
  dir=dist/release
  rm -rf "$dir" && mkdir -p "$dir"
  bun deploy/release-notes.ts notes "$version" >"$dir/RELEASE-NOTES.md"
  local t pids=()
  # Side by side: each compile and each package waits mostly on one core.
  for t in $RELEASE_TARGETS; do
    compile "$dir/parkd-$version-$t" "$t" &
    pids+=($!)
  done
  for t in "${pids[@]}"; do wait "$t"; done
  ensure_debian_package dpkg-deb dpkg
  # amd64: the baseline build, since a Debian amd64 package must run on every amd64 CPU (kiosks
  # without AVX2 included); the plain x64 binary is there for boxes known to have it.
  deploy/build-deb.sh "$dir/parkd-$version-linux-x64-baseline" amd64 "$version" "$dir" &
  pids=($!)
  deploy/build-deb.sh "$dir/parkd-$version-linux-arm64" arm64 "$version" "$dir" &
  pids+=($!)
  for t in "${pids[@]}"; do wait "$t"; done
  (cd "$dir" && sha256sum parkd-"$version"-linux-* parkd_*.deb >SHA256SUMS)
  echo "release $version in $dir:" >&2
  ls -l "$dir" >&2
}

# The release step of the tests: every release binary as a user runs it (arm64 under
# qemu-aarch64, the baseline build under qemu-x86_64 on a CPU without AVX2), the Debian packages
# through lintian and installed, upgraded, removed and purged in a throwaway root.
release_tests() {
  ensure_debian_package qemu-aarch64 qemu-user
  if [ ! -d /usr/aarch64-linux-gnu/lib ]; then ensure_debian_package_always libc6-arm64-cross; fi
  ensure_debian_package lintian lintian
  local started=$SECONDS
  release
  echo "== release tests" >&2
  # Named *.release.ts, so the main `bun test` pass leaves them to this step.
  PARKD_RELEASE_DIR="$PWD/dist/release" bun test ./test/release/*.release.ts
  echo "== release step (build and tests) took $((SECONDS - started)) s" >&2
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
    # The web client on its own, with the browser's library (type-only imports of the server's models).
    bun x tsc --noEmit -p src/client
    echo "== lint" >&2
    bun x biome check .
    ensure_debian_package chromium chromium
    ensure_debian_package promtool prometheus
    ensure_debian_package openssl openssl
    ensure_debian_package certutil libnss3-tools
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
      echo "== the route tests' exchanges through Prism's validator" >&2
      bun test/contract/check-exchanges.ts "${observed%.jsonl}.exchanges.jsonl"
    fi
    rm -rf "$(dirname "$observed")"
    if [ $# -eq 0 ]; then release_tests; fi
    ;;
  release)
    release
    ;;
  release-test)
    release_tests
    ;;
  *)
    echo "usage: ./build.sh [build|test|release|release-test]" >&2
    exit 2
    ;;
esac
