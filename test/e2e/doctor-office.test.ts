/** `parkd doctor --central` on the built binary against a real PostgreSQL: the office link and clock skew. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { boxesForFile } from "../support/binary.ts";
import { type PgServer, postgresAvailable, startPostgres } from "../support/postgres.ts";

// `available` throws under CI=true when PostgreSQL is missing: only a laptop without it skips.
const available = postgresAvailable();
const newBox = boxesForFile();
let pg: PgServer;

beforeAll(async () => {
  if (!available) return;
  pg = await startPostgres();
}, 60_000);

afterAll(async () => {
  await pg?.destroy();
}, 30_000);

interface Report {
  findings: { check: string; level: string; summary: string; fix?: string; condition?: string }[];
}
const find = (stdout: string, check: string) =>
  (JSON.parse(stdout) as Report).findings.find((f) => f.check === check)!;
const conditions = (stdout: string) =>
  (JSON.parse(stdout) as Report).findings.filter((f) => f.condition).map((f) => f.condition);

describe.skipIf(!available)("doctor and the office", () => {
  test("an office without parkd's schema, a wrong password, then a working link with the clock compared", async () => {
    const box = newBox();
    await box.migrate();
    const args = ["doctor", "--json", "--http", "--port", "0", "--central", pg.url, "--site", "north"];
    const env = { PARKD_CENTRAL_PASSWORD: pg.password };

    const bare = await box.run(args, { env });
    expect(bare.code).toBe(1);
    expect(find(bare.stdout, "office link")).toMatchObject({ level: "fail", condition: "office-schema" });
    expect(find(bare.stdout, "office link").summary).toContain("parkd central init");
    expect(find(bare.stdout, "clock").summary).toMatch(/^\d+\.\d s (ahead of|behind) the office/);

    const wrong = await box.run(args, { env: { PARKD_CENTRAL_PASSWORD: "not-it" } });
    expect(wrong.code).toBe(1);
    expect(find(wrong.stdout, "office link").fix).toContain("the password");
    expect(wrong.stdout).not.toContain(pg.password);

    expect((await box.run(["central", "init", pg.url], { env })).code).toBe(0);
    // The owner's role is no site's: serve's sync refuses it, so doctor does.
    const owner = await box.run(args, { env });
    expect(owner.code).toBe(1);
    expect(conditions(owner.stdout)).toEqual(["office-role-not-site"]);

    const pwFile = `${box.dir}/north.pw`;
    for (const site of ["north", "south"])
      expect(
        (
          await box.run(
            ["central", "add-site", site, pg.url, "--site-password-file", `${box.dir}/${site}.pw`],
            {
              env,
            },
          )
        ).code,
      ).toBe(0);
    const siteUrl = (site: string) => pg.url.replace("parkd_office@", `parkd_site_${site}@`);
    const as = (site: string, more: string[] = [], url = siteUrl(site)) => [
      "doctor",
      "--json",
      "--http",
      "--port",
      "0",
      "--central",
      url,
      "--site",
      "north",
      "--central-password-file",
      `${box.dir}/${site}.pw`,
      ...more,
    ];
    const good = await box.run(as("north"));
    expect(find(good.stdout, "office link")).toMatchObject({ level: "ok" });
    expect(find(good.stdout, "office link").summary).toContain("this box last pushed never");
    expect(find(good.stdout, "clock").level).toBe("ok"); // same machine: well under 2 s
    expect(good.code).toBe(0);

    // Another site's role: refused by serve's sync, named by doctor with add-site for this site.
    const other = await box.run(as("south"));
    expect(other.code).toBe(1);
    expect(find(other.stdout, "office link")).toMatchObject({
      level: "fail",
      condition: "office-role-not-site",
    });
    expect(find(other.stdout, "office link").summary).toContain('is site "south"\'s');
    expect(find(other.stdout, "office link").fix).toContain("parkd central add-site north");

    // The site id held by another box (its box_id at the office is not this store's).
    const office = new Bun.SQL(pg.urlWithPassword, { max: 1 });
    await office`UPDATE parkd.sites SET box_id = ${crypto.randomUUID()} WHERE site = 'north'`;
    const claimed = await box.run(as("north"));
    expect(claimed.code).toBe(1);
    expect(find(claimed.stdout, "office link")).toMatchObject({
      level: "fail",
      condition: "office-site-claimed",
    });
    expect(find(claimed.stdout, "office link").fix).toContain("parkd.sites.box_id");
    await office`UPDATE parkd.sites SET box_id = NULL WHERE site = 'north'`;
    await office.close();

    // A plaintext link: doctor says so (a warning; the link itself works).
    const plain = await box.run(as("north", [], `${siteUrl("north")}?sslmode=disable`));
    expect(conditions(plain.stdout)).toEqual(["office-plaintext"]);
    expect(
      (JSON.parse(plain.stdout) as Report).findings
        .filter((f) => f.check === "office link")
        .map((f) => f.level),
    ).toEqual(["warn", "ok"]);
    expect(plain.code).toBe(0);
    void pwFile;
  }, 60_000);
});
