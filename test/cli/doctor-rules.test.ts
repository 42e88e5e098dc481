import { describe, expect, test } from "bun:test";
import {
  canonicalIp,
  certificateRules,
  clockRule,
  portRule,
  systemdRule,
  timezoneRule,
} from "../../src/cli/doctor/box-rules.ts";
import {
  diskRule,
  integrityRule,
  mountRule,
  ownershipRule,
  schemaRule,
  terminalsRule,
  upgradeCopyRule,
  walRule,
} from "../../src/cli/doctor/rules.ts";

const MB = 1024 * 1024;
const NOW = Date.UTC(2026, 5, 15, 12);

describe("doctor's rules: every failure carries a fix", () => {
  test.each([
    { lines: ["ok"], level: "ok" },
    { lines: ["*** in database main ***", "Page 5: never used"], level: "fail" },
  ])("integrity $lines", ({ lines, level }) => {
    const f = integrityRule([...lines], 10 * MB);
    expect(f.level).toBe(level as never);
    if (level === "fail") expect(f.fix).toContain("parkd restore");
  });

  test.each([
    { applied: 4, pending: 0, unknown: 0, level: "ok" },
    { applied: 3, pending: 1, unknown: 0, level: "info" },
    { applied: 5, pending: 0, unknown: 1, level: "fail" },
    { applied: 0, pending: 4, unknown: 0, level: "warn" },
  ])(
    "schema applied $applied pending $pending unknown $unknown: $level",
    ({ applied, pending, unknown, level }) => {
      const f = schemaRule(applied, pending, unknown, 4);
      expect(f.level).toBe(level as never);
      if (level === "fail") expect(f.summary).toContain("newer parkd");
    },
  );

  test.each([
    { copies: [], running: false, level: null },
    { copies: [], running: true, level: null },
    {
      copies: ["backups/.parkd-before-schema-17-from-10-20261207T221600Z.db.unchecked"],
      running: true,
      level: "info",
    },
    {
      copies: ["backups/.parkd-before-schema-17-from-10-20261207T221600Z.db.unchecked"],
      running: false,
      level: "warn",
    },
  ])("unchecked pre-upgrade copies $copies, serve running $running: $level", ({ copies, running, level }) => {
    const f = upgradeCopyRule(copies, running);
    expect(f?.level ?? null).toBe(level as never);
    if (f) expect(f.summary).toContain(copies[0]!);
    if (level === "warn") expect(f!.fix).toContain("start the service");
  });

  test.each([
    { wal: 0, level: "ok" },
    { wal: 64 * MB, level: "ok" },
    { wal: 65 * MB, level: "warn" },
  ])("WAL of $wal bytes: $level", ({ wal, level }) => expect(walRule(wal).level).toBe(level as never));

  test.each([
    { free: 500 * MB, total: 1000 * MB, level: "ok" },
    { free: 90 * MB, total: 1000 * MB, level: "warn" },
    { free: 63 * MB, total: 1000 * MB, level: "fail" },
    { free: 1000 * MB, total: 100_000 * MB, level: "fail" }, // 1 %: under 2 %
    { free: 5000 * MB, total: 100_000 * MB, level: "warn" },
  ])("disk $free of $total: $level", ({ free, total, level }) => {
    const f = diskRule(free, total, "/var/lib/parkd");
    expect(f.level).toBe(level as never);
    if (level !== "ok") expect(f.fix).toBeDefined();
  });

  test.each([
    { free: 5000 * MB, reserve: 1000 * MB, condition: undefined, level: "ok" },
    { free: 1900 * MB, reserve: 1000 * MB, condition: "disk-near-reserve", level: "warn" },
    { free: 900 * MB, reserve: 1000 * MB, condition: "disk-at-reserve", level: "warn" },
    { free: 50 * MB, reserve: 1000 * MB, condition: undefined, level: "fail" }, // under 64 MB: full
  ])(
    "disk $free free, $reserve kept for ticket events: $condition",
    ({ free, reserve, condition, level }) => {
      const f = diskRule(free, 20_000 * MB, "/var/lib/parkd", reserve);
      expect(f.level).toBe(level as never);
      expect(f.condition).toBe(condition as never);
      if (condition) expect(f.summary).toContain("kept for ticket events (--disk-reserve-mb)");
    },
  );

  test("a data folder on a read-only mount is named as such", () => {
    expect(mountRule(null, "/var/lib/parkd").level).toBe("ok");
    const f = mountRule("/var", "/var/lib/parkd");
    expect(f.level).toBe("fail");
    expect(f.summary).toContain("/var, mounted read-only");
    expect(f.fix).toContain("mount -o remount,rw /var");
  });

  test("ownership and modes: the folder's owner owns all, nobody else reads; repairs are chmods only", () => {
    const names = (uid: number) => (uid === 100 ? "parkd" : "root");
    const folder = { path: "/d", kind: "folder" as const, mode: 0o700, uid: 100 };
    expect(
      ownershipRule(
        folder,
        [{ path: "/d/parkd.db", kind: "private", mode: 0o600, uid: 100 }],
        "/d",
        names,
      )[0]!.level,
    ).toBe("ok");
    const found = ownershipRule(
      { ...folder, mode: 0o750 },
      [
        { path: "/d/parkd.db", kind: "private", mode: 0o644, uid: 100 },
        { path: "/d/parkd.db-wal", kind: "private", mode: 0o600, uid: 0 },
        { path: "/d/tls/cert.pem", kind: "public", mode: 0o644, uid: 100 },
      ],
      "/d",
      names,
    );
    expect(found.map((f) => f.level)).toEqual(["fail", "fail", "fail"]);
    expect(found[0]!.summary).toContain("root: /d/parkd.db-wal");
    expect(found[0]!.fix).toContain("chown -R parkd: /d");
    expect(found[0]!.repair).toBeUndefined(); // ownership is never changed by --fix
    expect(found.slice(1).map((f) => f.repair)).toEqual([
      { kind: "chmod", path: "/d", mode: 0o700 },
      { kind: "chmod", path: "/d/parkd.db", mode: 0o600 },
    ]);
    // Read-only for the service's user: root (doctor) could write, serve cannot.
    const readOnly = ownershipRule(
      { ...folder, mode: 0o500 },
      [
        { path: "/d/parkd.db", kind: "private", mode: 0o400, uid: 100 },
        { path: "/d/tls/cert.pem", kind: "public", mode: 0o444, uid: 100 },
      ],
      "/d",
      names,
    );
    expect(readOnly.map((f) => [f.level, f.summary.split(" (")[0]])).toEqual([
      ["fail", "/d is read-only for parkd"],
      ["fail", "/d/parkd.db is read-only for parkd"],
    ]);
    expect(readOnly[1]!.summary).toContain("every write with 503");
    expect(readOnly.map((f) => f.repair)).toEqual([
      { kind: "chmod", path: "/d", mode: 0o700 },
      { kind: "chmod", path: "/d/parkd.db", mode: 0o600 },
    ]);
    expect(ownershipRule(null, [], "/d", names)[0]!.repair).toEqual({
      kind: "mkdir",
      path: "/d",
      mode: 0o700,
    });
  });

  test.each([
    { days: 400, source: "own", level: "ok" },
    { days: 29, source: "own", level: "warn" },
    {
      days: -1,
      source: "own",
      level: "fail",
      condition: "tls-expired",
      fix: "put a renewed certificate at /d/tls/cert.pem",
    },
    {
      days: -1,
      source: "self-signed",
      level: "fail",
      condition: "tls-expired",
      fix: "serve makes a local CA and issues from it",
    },
    // serve issues a new one from the local CA at its start: no 'self-signed' in the fix.
    {
      days: -1,
      source: "local-ca",
      level: "warn",
      condition: "tls-local-ca-renews",
      fix: "serve issues the new certificate itself",
    },
  ] as const)("certificate ($source) valid for $days days: $level", ({ days, source, level, ...rest }) => {
    const [expiry] = certificateRules(
      {
        file: "/d/tls/cert.pem",
        source,
        validTo: NOW + days * 86_400_000 + 1000,
        dns: ["localhost"],
        ips: [],
      },
      [],
      "",
      NOW,
    );
    expect(expiry!.level).toBe(level as never);
    if ("fix" in rest) expect(expiry!.fix).toContain(rest.fix);
    if ("condition" in rest) expect(expiry!.condition).toBe(rest.condition);
    expect(expiry!.fix ?? "").not.toContain("a new self-signed certificate");
  });

  test("certificate names: every address of the box and its host name, or a warning naming the missing ones", () => {
    const cert = {
      file: "c",
      source: "own" as const,
      validTo: NOW + 1e10,
      dns: ["localhost", "kiosk-1"],
      ips: ["10.0.0.5"],
    };
    expect(certificateRules(cert, ["10.0.0.5"], "kiosk-1", NOW)[1]!.level).toBe("ok");
    const moved = certificateRules(cert, ["10.0.0.7", "10.0.0.5"], "kiosk-2", NOW)[1]!;
    expect(moved.level).toBe("warn");
    expect(moved.summary).toContain("kiosk-2, 10.0.0.7");
    expect(moved.fix).toContain("also names kiosk-2, 10.0.0.7");
  });

  test.each([
    ["fd00::2", "fd00:0:0:0:0:0:0:2"],
    ["FD00:0:0:0:0:0:0:2", "fd00:0:0:0:0:0:0:2"],
    ["::1", "0:0:0:0:0:0:0:1"],
    ["fe80::fc:ff:fe00:1", "fe80:0:0:0:fc:ff:fe00:1"],
    ["10.0.0.5", "10.0.0.5"],
  ])("canonicalIp(%p)", (a, b) => expect(canonicalIp(a)).toBe(b));

  test("an IPv6 address in the certificate's long spelling covers the system's short one", () => {
    const cert = {
      file: "c",
      source: "local-ca" as const,
      validTo: NOW + 1e10,
      dns: ["vm"],
      ips: ["FD00:0:0:0:0:0:0:2", "192.0.2.2"],
    };
    expect(certificateRules(cert, ["192.0.2.2", "fd00::2"], "vm", NOW)[1]!.level).toBe("ok");
  });

  test("time zone and clock", () => {
    expect(timezoneRule("Europe/Stockholm", true, "Europe/Stockholm").level).toBe("ok");
    expect(timezoneRule("Mars/Olympus", false, "UTC").level).toBe("fail");
    expect(clockRule(500, true).level).toBe("ok");
    expect(clockRule(-5_000, true)).toMatchObject({ level: "warn", condition: "office-clock-skew" });
    expect(clockRule(-5_000, true).summary).toStartWith("5.0 s behind the office; serve judges tickets");
    expect(clockRule(31_000, true).level).toBe("fail");
    expect(clockRule(undefined, false).level).toBe("warn");
    expect(clockRule(undefined, undefined).level).toBe("info");
  });

  test.each([
    { state: "free", level: "ok" },
    { state: "this-parkd", level: "ok" },
    { state: "other-parkd", level: "fail" },
    { state: "other", level: "fail" },
    { state: "denied", level: "fail" },
  ] as const)("port $state: $level", ({ state, level }) =>
    expect(portRule(state, "0.0.0.0", 8443).level).toBe(level),
  );

  test("systemd unit", () => {
    const unit = { load: "loaded", active: "active", sub: "running", enabled: "enabled", restarts: 0 };
    expect(systemdRule(null).level).toBe("info");
    expect(systemdRule("not-running").summary).toContain("not running");
    expect(systemdRule(unit).level).toBe("ok");
    expect(systemdRule({ ...unit, active: "failed", sub: "failed" }).level).toBe("fail");
    expect(systemdRule({ ...unit, active: "inactive", sub: "dead" }).level).toBe("fail");
    expect(systemdRule({ ...unit, active: "inactive", sub: "dead", enabled: "disabled" }).level).toBe("info");
    expect(systemdRule({ ...unit, restarts: 7 }).level).toBe("warn");
  });

  test("terminals: silent after 30 minutes; one that never sent anything is only listed", () => {
    const min = 60_000;
    expect(terminalsRule([], NOW).level).toBe("info");
    const quiet = terminalsRule(
      [
        { label: "token:terminal-1", lastEventAt: NOW - 5 * min },
        { label: "token:terminal-2", lastEventAt: NOW - 45 * min },
        { label: "user:terminal-3", lastEventAt: null },
      ],
      NOW,
    );
    expect(quiet.level).toBe("warn");
    expect(quiet.summary).toContain("silent for over 30 min: token:terminal-2 ");
    expect(quiet.summary).toContain(
      "token:terminal-1: 5 min ago; token:terminal-2: 45 min ago; user:terminal-3: never",
    );
    expect(terminalsRule([{ label: "token:t", lastEventAt: NOW - 5 * min }], NOW).level).toBe("ok");
  });
});
