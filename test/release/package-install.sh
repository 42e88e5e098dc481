#!/bin/sh
# Installs, upgrades, removes and purges a parkd .deb in a throwaway root: an overlay of this
# machine's own / (so the real dpkg, adduser and libc are there), inside a private mount
# namespace, so nothing of it reaches the machine. Run by package.release.ts as root:
#   unshare --mount --fork sh test/release/package-install.sh DEB FIXTURE_STORE WORKDIR
# Prints key=value lines for the test to check; exits non-zero on the first failed step.
set -eu
deb=$1 fixture=$2 work=$3
mkdir -p "$work/upper" "$work/work" "$work/root"
mount --make-rprivate /
mount -t overlay overlay -o "lowerdir=/,upperdir=$work/upper,workdir=$work/work" "$work/root"
R=$work/root
mount --rbind /dev "$R/dev"
mount -t proc proc "$R/proc"
# A system booted with systemd has /run/systemd/system; the unit calls are recorded, not made.
mount -t tmpfs tmpfs "$R/run"
mkdir -p "$R/run/systemd/system" "$R/mnt/release"
cp "$deb" "$R/mnt/release/parkd.deb"
cp "$fixture" "$R/mnt/release/old-store.db"
for tool in deb-systemd-invoke systemctl; do
	printf '#!/bin/sh\necho "%s $*" >>/run/unit-calls\n' "$tool" >"$R/usr/local/sbin/$tool"
	chmod 0755 "$R/usr/local/sbin/$tool"
done
in_root() { chroot "$R" env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
mode() { in_root stat -c '%a %U:%G' "$1"; }

in_root dpkg -i /mnt/release/parkd.deb >/dev/null
echo "installed.version=$(in_root /usr/bin/parkd version)"
echo "installed.user=$(in_root getent passwd parkd | cut -d: -f6,7)"
echo "installed.data=$(mode /var/lib/parkd)"
echo "installed.env=$(mode /etc/parkd/parkd.env)"
echo "installed.conffiles=$(in_root dpkg-query -W -f='${Conffiles}' parkd | awk '{print $1}' | tr '\n' ' ')"
echo "installed.unit=$(grep '^ExecStart=' "$R/lib/systemd/system/parkd.service")"
echo "installed.docs=$(ls "$R/usr/share/doc/parkd" | tr '\n' ' ')"
echo "installed.calls=$(tr '\n' ';' <"$R/run/unit-calls")"
: >"$R/run/unit-calls"

# The site as release 0.1.0 left it: its store, and a setting the operator edited.
in_root install -o parkd -g parkd -m 0600 /mnt/release/old-store.db /var/lib/parkd/parkd.db
echo 'PARKD_TIMEZONE=Europe/Stockholm' >>"$R/etc/parkd/parkd.env"

# An upgrade on a disk too full for it: the data folder on a 4 MB filesystem, the store in it. The
# configure step fails saying why; dpkg leaves the package half-configured, the store as it was.
mount -t tmpfs -o size=4m,mode=0700 tmpfs "$R/var/lib/parkd"
in_root chown parkd:parkd /var/lib/parkd
in_root install -o parkd -g parkd -m 0600 /mnt/release/old-store.db /var/lib/parkd/parkd.db
# The store's pages past the file's header: opening it switches its journal to WAL, which is
# written in the header alone.
pages() { tail -c +101 "$1" | md5sum; }
full_sum=$(pages "$R/var/lib/parkd/parkd.db")
if in_root dpkg -i /mnt/release/parkd.deb >"$work/full.log" 2>&1; then echo "full.exit=0"; else echo "full.exit=failed"; fi
echo "full.said=$(grep -o 'not enough free space in /var/lib/parkd to upgrade the store.s schema from version 3 to [0-9]*' "$work/full.log" | head -1)"
echo "full.status=$(in_root dpkg-query -W -f='${db:Status-Status}' parkd)"
echo "full.store=$(test "$(pages "$R/var/lib/parkd/parkd.db")" = "$full_sum" && echo unchanged || echo changed)"
umount "$R/var/lib/parkd"
: >"$R/run/unit-calls"

# An upgrade: dpkg runs prerm upgrade, unpacks, then postinst configure with the old version.
in_root dpkg -i /mnt/release/parkd.deb >"$work/upgrade.log" 2>&1 || { cat "$work/upgrade.log"; exit 1; }
echo "upgraded.calls=$(tr '\n' ';' <"$R/run/unit-calls")"
echo "upgraded.migrate=$(grep 'schema upgraded' "$work/upgrade.log" || true)"
echo "upgraded.backups=$(cd "$R/var/lib/parkd/backups" && for f in *; do echo "$f $(mode "/var/lib/parkd/backups/$f")"; done)"
echo "upgraded.store=$(in_root runuser -u parkd -- /usr/bin/parkd migrate --data-dir /var/lib/parkd 2>&1 | tail -1)"
echo "upgraded.env=$(tail -1 "$R/etc/parkd/parkd.env")"
echo "upgraded.doctor=$(in_root /usr/bin/parkd doctor --data-dir /var/lib/parkd --http --port 0 --json | grep -c '"level": "fail"' || true)"

in_root dpkg -r parkd >/dev/null
echo "removed.binary=$(test -e "$R/usr/bin/parkd" && echo present || echo gone)"
echo "removed.store=$(test -f "$R/var/lib/parkd/parkd.db" && echo kept || echo gone)"
echo "removed.env=$(test -f "$R/etc/parkd/parkd.env" && echo kept || echo gone)"

in_root dpkg -P parkd >/dev/null
echo "purged.data=$(test -e "$R/var/lib/parkd" && echo kept || echo gone)"
echo "purged.etc=$(test -e "$R/etc/parkd" && echo kept || echo gone)"
echo "purged.status=$(in_root dpkg-query -W -f='${db:Status-Status}' parkd 2>/dev/null || echo unknown)"
echo "purged.user=$(in_root getent passwd parkd >/dev/null && echo kept || echo gone)"

# A box set up by hand as the README shows (binary in /usr/local/bin, unit in /etc/systemd/system,
# enabled), holding a 0.1.0 store; then the package installed over it.
in_root install -d -o parkd -g parkd -m 0700 /var/lib/parkd
in_root install -o parkd -g parkd -m 0600 /mnt/release/old-store.db /var/lib/parkd/parkd.db
printf '#!/bin/sh\necho hand-installed parkd\n' >"$R/usr/local/bin/parkd"
chmod 0755 "$R/usr/local/bin/parkd"
printf '[Service]\nUser=parkd\nExecStart=/usr/local/bin/parkd serve --data-dir /var/lib/parkd --rate-limit-per-second 100\n[Install]\nWantedBy=multi-user.target\n' >"$R/etc/systemd/system/parkd.service"
mkdir -p "$R/etc/systemd/system/multi-user.target.wants"
ln -sf /etc/systemd/system/parkd.service "$R/etc/systemd/system/multi-user.target.wants/parkd.service"
: >"$R/run/unit-calls"
in_root dpkg -i /mnt/release/parkd.deb >"$work/hand.log" 2>&1 || { cat "$work/hand.log"; exit 1; }
echo "hand.calls=$(tr '\n' ';' <"$R/run/unit-calls")"
echo "hand.unit=$(test -e "$R/etc/systemd/system/parkd.service" && echo present || echo moved)"
echo "hand.aside=$(test -f "$R/etc/systemd/system/parkd.service.hand-installed" && echo kept || echo missing)"
echo "hand.wants=$(test -L "$R/etc/systemd/system/multi-user.target.wants/parkd.service" && echo linked || echo gone)"
echo "hand.said=$(grep -c 'installed by hand' "$work/hand.log" || true)"
echo "hand.migrate=$(grep 'schema upgraded' "$work/hand.log" || true)"
echo "hand.store=$(in_root runuser -u parkd -- /usr/bin/parkd migrate --data-dir /var/lib/parkd 2>&1 | tail -1)"
