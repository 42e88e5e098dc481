#!/usr/bin/env bash
# Builds the Debian package of one release binary:
#   deploy/build-deb.sh BINARY ARCH VERSION OUTDIR     (ARCH: amd64 or arm64)
# writes OUTDIR/parkd_VERSION_ARCH.deb with dpkg-deb (no debhelper: the package is one binary,
# its unit, its settings file and its docs). What goes where: docs/operations.md. gzip, not xz:
# as fast to unpack, readable by every dpkg, and xz took minutes over the 110 MB binary.
set -euo pipefail
umask 022
[ $# -eq 4 ] || { echo "usage: deploy/build-deb.sh BINARY ARCH VERSION OUTDIR" >&2; exit 2; }
bin=$1 arch=$2 version=$3 out=$4
here="$(cd "$(dirname "$0")" && pwd)"
top="$(dirname "$here")"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
chmod 0755 "$root"

install -D -m 0755 "$bin" "$root/usr/bin/parkd"
# The repository's unit, pointed at the packaged binary and docs.
mkdir -p "$root/lib/systemd/system"
sed -e 's|/usr/local/bin/parkd|/usr/bin/parkd|g' \
  -e 's|^Documentation=.*|Documentation=man:parkd(1) file:///usr/share/doc/parkd/operations.md.gz|' \
  -e 's|^# parkd as a systemd service. Install: .*|# parkd as a systemd service, installed by the parkd package.|' \
  -e '/^#   cp deploy\/parkd.service/d' \
  "$top/deploy/parkd.service" >"$root/lib/systemd/system/parkd.service"
chmod 0644 "$root/lib/systemd/system/parkd.service"
install -D -m 0600 "$here/debian/parkd.env" "$root/etc/parkd/parkd.env"

doc="$root/usr/share/doc/parkd"
mkdir -p "$doc"
for f in README.md docs/*.md; do
  gzip -9n <"$top/$f" >"$doc/$(basename "$f").gz"
done
bun "$top/deploy/release-notes.ts" debian-changelog "$version" | gzip -9n >"$doc/changelog.gz"
install -m 0644 "$here/debian/copyright" "$doc/copyright"
mkdir -p "$root/usr/share/man/man1"
sed "s/@VERSION@/$version/" "$here/debian/parkd.1" | gzip -9n >"$root/usr/share/man/man1/parkd.1.gz"
install -D -m 0644 "$here/debian/lintian-overrides" "$root/usr/share/lintian/overrides/parkd"
find "$root" -type f -exec chmod go-w {} + && find "$root" -type d -exec chmod 0755 {} +

mkdir -m 0755 "$root/DEBIAN"
size="$(du -sk --apparent-size "$root" | cut -f1)"
maintainer="$(bun -e 'console.log((await import(process.argv[1])).DEBIAN_MAINTAINER)' "$top/deploy/release-notes.ts")"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@MAINTAINER@/$maintainer/" \
  "$here/debian/control" >"$root/DEBIAN/control"
echo /etc/parkd/parkd.env >"$root/DEBIAN/conffiles"
for s in postinst prerm postrm; do install -m 0755 "$here/debian/$s" "$root/DEBIAN/$s"; done
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

mkdir -p "$out"
dpkg-deb --root-owner-group -Zgzip --build "$root" "$out/parkd_${version}_${arch}.deb" >&2
