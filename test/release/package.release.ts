/**
 * The Debian packages of the release: lintian finds nothing kept without a reason (errors and
 * warnings fail; the overrides and their reasons are in docs/operations.md), and the amd64
 * package is installed, upgraded over a store of release 0.1.0, removed and purged in a
 * throwaway root (package-install.sh: an overlay of this machine's / in a private mount
 * namespace; needs root). Named *.release.ts: run by the release step, not the main pass.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn, spawnSync } from "bun";

const DIR = process.env.PARKD_RELEASE_DIR ?? join(import.meta.dir, "../../dist/release");
const VERSION = (
  JSON.parse(readFileSync(join(import.meta.dir, "../../package.json"), "utf8")) as { version: string }
).version;
const ci = process.env.CI === "true";

function can(what: string, ok: boolean): boolean {
  if (!ok && ci) throw new Error(`the package tests need ${what}`);
  return ok;
}
const lintian = can("lintian (./build.sh test installs it as root)", Bun.which("lintian") !== null);
const throwawayRoot = can(
  "root and mount namespaces (unshare --mount) with overlayfs",
  process.getuid?.() === 0 && spawnSync(["unshare", "--mount", "true"]).exitCode === 0,
);

// Lintian takes most of a minute per package: both run beside the install test.
const linted = lintian
  ? Object.fromEntries(
      ["amd64", "arm64"].map((arch) => {
        const p = spawn(
          ["lintian", "--fail-on", "error,warning", join(DIR, `parkd_${VERSION}_${arch}.deb`)],
          {
            stdout: "pipe",
            stderr: "pipe",
          },
        );
        return [arch, Promise.all([new Response(p.stdout).text(), p.exited])] as const;
      }),
    )
  : {};

describe("the Debian packages", () => {
  for (const arch of ["amd64", "arm64"])
    test.skipIf(!lintian)(
      `${arch}: lintian reports no error or warning`,
      async () => {
        const [out, code] = await linted[arch]!;
        expect(out.split("\n").filter((l) => /^[EW]: /.test(l))).toEqual([]);
        expect(code).toBe(0);
      },
      240_000,
    );

  test.skipIf(!throwawayRoot)(
    "amd64: install, upgrade over a 0.1.0 store, remove, purge",
    () => {
      const work = mkdtempSync(join(tmpdir(), "parkd-deb-"));
      try {
        const r = spawnSync(
          [
            "unshare",
            "--mount",
            "--fork",
            "sh",
            join(import.meta.dir, "package-install.sh"),
            join(DIR, `parkd_${VERSION}_amd64.deb`),
            join(import.meta.dir, "../fixtures/store-0.1.0/parkd.db"),
            work,
          ],
          { stdout: "pipe", stderr: "pipe" },
        );
        const out = r.stdout.toString();
        if (r.exitCode !== 0) throw new Error(`package-install.sh failed:\n${out}\n${r.stderr.toString()}`);
        const seen = Object.fromEntries(
          out
            .trim()
            .split("\n")
            .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1).trim()]),
        );
        // Installed: the baseline build in /usr/bin, a system user, a private data folder, the settings file as a conffile.
        expect(seen["installed.version"]).toMatch(
          new RegExp(`^parkd ${VERSION.replace(/\./g, "\\.")} .*linux-x64-baseline\\)$`),
        );
        expect(seen["installed.user"]).toBe("/var/lib/parkd:/usr/sbin/nologin");
        expect(seen["installed.data"]).toBe("700 parkd:parkd");
        expect(seen["installed.env"]).toBe("600 root:root");
        expect(seen["installed.conffiles"]).toBe("/etc/parkd/parkd.env");
        expect(seen["installed.unit"]).toStartWith(
          "ExecStart=/usr/bin/parkd serve --data-dir /var/lib/parkd",
        );
        for (const doc of ["README.md.gz", "operations.md.gz", "changelog.gz", "copyright"])
          expect(seen["installed.docs"]).toContain(doc);
        expect(seen["installed.calls"]).toContain("deb-systemd-invoke start parkd.service");
        // Upgraded: stopped, store copied aside and migrated, started again; the edited settings kept.
        expect(seen["upgraded.calls"]).toMatch(
          /^deb-systemd-invoke stop parkd\.service;.*deb-systemd-invoke start parkd\.service;$/,
        );
        // A disk too full for the upgrade: the configure step fails with the reason, nothing changed.
        expect(seen["full.exit"]).toBe("failed");
        expect(seen["full.said"]).toMatch(
          /^not enough free space in \/var\/lib\/parkd to upgrade the store's schema from version 3 to \d+$/,
        );
        expect(seen["full.status"]).toBe("half-configured");
        expect(seen["full.store"]).toBe("unchanged");
        expect(seen["upgraded.migrate"]).toMatch(/store schema upgraded from version 3 to \d+/);
        expect(seen["upgraded.backups"]).toMatch(
          /^parkd-before-schema-\d+-from-3-\d{8}T\d{6}Z\.db 600 parkd:parkd$/,
        );
        expect(seen["upgraded.store"]).toMatch(/is at schema version \d+$/);
        expect(seen["upgraded.env"]).toBe("PARKD_TIMEZONE=Europe/Stockholm");
        expect(seen["upgraded.doctor"]).toBe("0");
        // Removed: the program goes, data and settings stay. Purged: they go too, without a question.
        expect([seen["removed.binary"], seen["removed.store"], seen["removed.env"]]).toEqual([
          "gone",
          "kept",
          "kept",
        ]);
        expect([seen["purged.data"], seen["purged.etc"]]).toEqual(["gone", "gone"]);
        expect(seen["purged.status"]).not.toBe("installed");
        expect(seen["purged.user"]).toBe("kept");
        // Over a hand-installed box: its unit stopped, disabled and moved aside (said so), the
        // store it served migrated, the package's unit started in its place.
        expect(seen["hand.calls"]).toMatch(
          /deb-systemd-invoke stop parkd\.service;.*deb-systemd-invoke start parkd\.service/,
        );
        expect([seen["hand.unit"], seen["hand.aside"], seen["hand.wants"]]).toEqual([
          "moved",
          "kept",
          "gone",
        ]);
        expect(Number(seen["hand.said"])).toBeGreaterThanOrEqual(2);
        expect(seen["hand.migrate"]).toMatch(/store schema upgraded from version 3 to \d+/);
        expect(seen["hand.store"]).toMatch(/is at schema version \d+$/);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    240_000,
  );
});
