import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CentralConfigError,
  checkCentralUrl,
  redactedUrl,
  sslModeOf,
  withSslMode,
} from "../../../src/modules/sync/connection.ts";
import { localPermit } from "../../../src/modules/sync/office/pulls.ts";
import { newSitePassword, scramVerifier, siteRoleName } from "../../../src/modules/sync/office/roles.ts";
import { syncSettings } from "../../../src/modules/sync/settings.ts";

describe("the office link's settings", () => {
  test("a URL with a password in it, anywhere, is refused; other URLs pass", () => {
    for (const bad of [
      "postgres://parkd:secret@office:5432/parkd",
      "postgres://parkd@office/parkd?password=secret",
      "postgres://parkd@office/parkd?sslmode=verify-full&sslpassword=x",
    ])
      expect(() => checkCentralUrl(bad)).toThrow(/must not carry a password/);
    expect(() => checkCentralUrl("mysql://parkd@office/parkd")).toThrow(/postgres:\/\//);
    expect(() => checkCentralUrl("office:5432")).toThrow(CentralConfigError);
    expect(checkCentralUrl("postgresql://parkd@office:5432/parkd?sslmode=require")).toContain(
      "sslmode=require",
    );
  });

  test("the link is encrypted unless the URL says sslmode=disable; modes that may fall back to plaintext are refused", () => {
    expect(checkCentralUrl("postgres://parkd@office:5432/parkd")).toBe(
      "postgres://parkd@office:5432/parkd?sslmode=require",
    );
    expect(sslModeOf(checkCentralUrl("postgres://parkd@office/parkd"))).toBe("require");
    for (const mode of ["verify-ca", "verify-full", "disable"] as const)
      expect(sslModeOf(checkCentralUrl(`postgres://parkd@office/parkd?sslmode=${mode}`))).toBe(mode);
    for (const mode of ["prefer", "allow", "nonsense"])
      expect(() => checkCentralUrl(`postgres://parkd@office/parkd?sslmode=${mode}`)).toThrow(
        /require \(the default\), verify-ca, verify-full, or disable/,
      );
    expect(withSslMode("postgres://u@h/db")).toBe("postgres://u@h/db?sslmode=require");
    expect(withSslMode("postgres://u@h/db?sslmode=disable")).toBe("postgres://u@h/db?sslmode=disable");
  });

  test("logs show the URL without password or query", () => {
    expect(redactedUrl("postgres://u:pw@h:1/db?sslrootcert=/x")).toBe("postgres://u@h:1/db");
  });

  test("the site id and the password: from a file's first line, else the environment", () => {
    const dir = mkdtempSync(join(tmpdir(), "parkd-settings-"));
    try {
      const file = join(dir, "pw");
      writeFileSync(file, "from-file\nignored\n");
      const url = "postgres://parkd@office/parkd";
      expect(syncSettings({ central: url, site: "north-1", passwordFile: file }, {})).toEqual({
        target: { url: `${url}?sslmode=require`, password: "from-file" },
        site: "north-1",
      });
      expect(
        syncSettings({ central: url, site: "n" }, { PARKD_CENTRAL_PASSWORD: "env" })?.target.password,
      ).toBe("env");
      expect(syncSettings({ central: url, site: "n" }, {})?.target.password).toBeUndefined();
      expect(() => syncSettings({ central: url, site: "n", passwordFile: join(dir, "none") }, {})).toThrow(
        /cannot read/,
      );
      writeFileSync(file, "");
      expect(() => syncSettings({ central: url, site: "n", passwordFile: file }, {})).toThrow(/empty/);
      expect(() => syncSettings({ central: url }, {})).toThrow(/--site/);
      expect(() => syncSettings({ central: url, site: "no spaces" }, {})).toThrow(/--site must be/);
      expect(() => syncSettings({ site: "lonely" }, {})).toThrow(/goes with --central/);
      expect(syncSettings({}, {})).toBeUndefined();
      expect(syncSettings({ central: url, site: "n", pushIntervalSeconds: 5 }, {})?.pushIntervalMs).toBe(
        5000,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("office permits the box can serve", () => {
  const base = {
    id: "7",
    plate: " ab-123 ",
    zone: 12,
    start_ms: "1781000000000",
    end_ms: null,
    note: "",
    days: null,
    sites: null,
  };

  test("are kept in the box's own form", () => {
    expect(localPermit(base)).toEqual({
      id: 7,
      plate: "ab-123",
      plateNorm: "AB123",
      zone: 12,
      startAt: 1781000000000,
      endAt: null,
      note: "",
      days: null,
    });
    const windows = [{ weekday: 1, start_time: "22:00:00", end_time: "06:00:00" }];
    expect(localPermit({ ...base, days: windows })?.days).toEqual(windows);
    expect(localPermit({ ...base, days: [] })?.days).toBeNull();
  });

  test("ones it could not serve as its own are refused", () => {
    for (const days of [
      { weekday: 1 },
      [{ weekday: 8, start_time: "07:00:00", end_time: "08:00:00" }],
      [{ weekday: 1, start_time: "7:00", end_time: "08:00:00" }],
      [{ weekday: 1, start_time: "08:00:00", end_time: "08:00:00" }],
      [{ weekday: 1, start_time: "24:00:00", end_time: "08:00:00" }],
    ])
      expect(localPermit({ ...base, days })).toBeNull();
    expect(localPermit({ ...base, plate: " - " })).toBeNull();
    expect(localPermit({ ...base, zone: 2 ** 31 })).toBeNull();
  });
});

describe("a site's role at the office", () => {
  test("is parkd_site_<site>, within PostgreSQL's 63 bytes; a longer or malformed site id is refused", () => {
    expect(siteRoleName("stockholm-centrum")).toBe("parkd_site_stockholm-centrum");
    expect(siteRoleName("a".repeat(52))).toHaveLength(63);
    expect(() => siteRoleName("a".repeat(53))).toThrow(/at most 52 characters/);
    expect(() => siteRoleName('x"; DROP ROLE y; --')).toThrow(CentralConfigError);
  });

  test("its password is 256 random bits on one line; the server gets only a SCRAM-SHA-256 verifier", () => {
    const a = newSitePassword();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSitePassword()).not.toBe(a);
    const v = scramVerifier(a);
    expect(v).toMatch(/^SCRAM-SHA-256\$4096:[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}:[A-Za-z0-9+/=]{44}$/);
    expect(v).not.toContain(a);
    // The same salt gives the same verifier; another salt another one.
    const salt = Buffer.alloc(16, 7);
    expect(scramVerifier(a, salt)).toBe(scramVerifier(a, salt));
    expect(scramVerifier(a, salt)).not.toBe(scramVerifier(a, Buffer.alloc(16, 8)));
  });
});

describe("the wait before trying a failed office again", () => {
  test("is between half the probe interval and all of it, never growing", async () => {
    const { retryWait } = await import("../../../src/modules/sync/job.ts");
    expect(retryWait(5_000, () => 0)).toBe(2_500);
    expect(retryWait(5_000, () => 0.999999)).toBeLessThan(5_000);
    for (let i = 0; i < 100; i++) expect(retryWait(5_000)).toBeLessThanOrEqual(5_000);
  });
});
