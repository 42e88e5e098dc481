import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { boxesForFile } from "../support/binary.ts";

const newBox = boxesForFile();

const DAY = 86_400_000;

/** Writes tickets straight into the store, one committed transaction each, as a second writer would. */
function ticketWriter(dbFile: string) {
  const db = new Database(dbFile);
  db.run("PRAGMA busy_timeout = 5000");
  db.run("PRAGMA synchronous = FULL");
  const insert = db.query(
    `INSERT INTO tickets (ticket_id, zone, start_at, end_at, plate, plate_norm, status, created_at, updated_at)
     VALUES (?, 1, ?, ?, 'ABC123', 'ABC123', ?, ?, ?)`,
  );
  const event = db.query(
    `INSERT INTO ticket_events (ticket_id, event_type, received_at, credential, raw_body, outcome)
     VALUES (?, 'TicketCreated', ?, 'token:test', '{}', 'applied')`,
  );
  const write = db.transaction((id: string, endAt: number | null) => {
    const now = Date.now();
    insert.run(id, now - DAY, endAt, endAt === null ? "running" : "stopped", now, now);
    event.run(id, now);
  });
  return { write, close: () => db.close(false) };
}

function ticketIds(dbFile: string): string[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.query("SELECT ticket_id FROM tickets").all() as { ticket_id: string }[]).map(
      (r) => r.ticket_id,
    );
  } finally {
    db.close(false);
  }
}

describe("backup and restore with the binary", () => {
  test("a backup taken during a stream of writes restores every write acknowledged before it", async () => {
    const box = newBox();
    expect((await box.run(["migrate"])).code).toBe(0);
    // A stream of writes at full speed from one token and one address (it reads /readyz, which is
    // limited per address): neither rate limit is the subject.
    const server = await box.serve([
      "--http",
      "--rate-limit-per-second",
      "0",
      "--public-rate-limit-per-second",
      "0",
    ]);
    const dbFile = join(box.dataDir, "parkd.db");
    const intake = await box.token("terminal", "tickets:write");
    // Each write is a TicketCreated through the intake, acknowledged with 200 once committed.
    const write = async (id: string) => {
      const r = await fetch(`${server.url}/api/v1/actions/tickets`, {
        method: "POST",
        headers: { authorization: `Bearer ${intake}`, "content-type": "application/json" },
        body: JSON.stringify({
          eventType: "TicketCreated",
          ticketId: id,
          zoneCode: "12",
          parkingLotId: null,
          startDate: new Date(Date.now() - DAY).toISOString(),
          endDate: null,
          licenseNumber: "ABC123",
          ticketCost: { amountInclVat: null, vatRate: null, currencyCode: null },
        }),
      });
      expect(r.status).toBe(200);
    };

    let acked = 0;
    let stop = false;
    const writes = (async () => {
      while (!stop && acked < 20_000) {
        await write(`w-${acked + 1}`);
        acked++;
        await Bun.sleep(0);
      }
    })();
    let answered = 0;
    const requests = (async () => {
      while (!stop && answered < 5000) {
        const r = await fetch(`${server.url}/readyz`);
        expect(r.status).toBe(200);
        answered++;
      }
    })();

    while (acked < 200) await Bun.sleep(5);
    const ackedBeforeBackup = acked;
    const backup = await box.run(["backup", "backup.db"]);
    const ackedAfterBackup = acked;
    if (process.env.PARKD_DEBUG) console.log({ ackedBeforeBackup, ackedAfterBackup });
    await Bun.sleep(50);
    stop = true;
    await Promise.all([writes, requests]);
    expect(backup.code).toBe(0);
    expect(backup.stderr).toContain("integrity ok");
    expect(answered).toBeGreaterThan(0);

    // While serve runs, restore refuses and changes nothing.
    const refused = await box.run(["restore", "backup.db"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("serve is running");
    expect(ticketIds(dbFile).length).toBe(acked);

    const started = performance.now();
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(performance.now() - started).toBeLessThan(5000);

    const restored = await box.run(["restore", "backup.db"]);
    expect(restored.code).toBe(0);
    const ids = ticketIds(dbFile);
    // A consistent snapshot: w-1..w-k with no gap, holding at least every write acknowledged
    // before the backup began, and nothing that was not yet written when it finished.
    expect(ids.length).toBeGreaterThanOrEqual(ackedBeforeBackup);
    expect(ids.length).toBeLessThanOrEqual(ackedAfterBackup);
    const numbers = new Set(ids.map((id) => Number(id.slice(2))));
    for (let i = 1; i <= ids.length; i++) expect(numbers.has(i)).toBe(true);
    // The old store is kept aside, whole.
    const aside = readdirSync(box.dataDir).filter(
      (f) => f.startsWith("parkd.db.before-restore-") && !f.includes("-wal") && !f.includes("-shm"),
    );
    expect(aside).toHaveLength(1);
    expect(ticketIds(join(box.dataDir, aside[0]!)).length).toBe(acked);

    // The restored store serves, and the start-up summary counts what it holds.
    const again = await box.serve(["--http"]);
    expect((await fetch(`${again.url}/readyz`)).status).toBe(200);
    expect(again.stderr()).toContain(`${ids.length} tickets`);
    expect(await again.stop("SIGTERM")).toBe(0);
  });

  test("backup refuses to overwrite without --force; restore rejects files that are not parkd stores", async () => {
    const box = newBox();
    expect((await box.run(["migrate"])).code).toBe(0);
    expect((await box.run(["backup", "b.db"])).code).toBe(0);
    const again = await box.run(["backup", "b.db"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("--force");
    expect((await box.run(["backup", "b.db", "--force"])).code).toBe(0);
    expect(statSync(join(box.dir, "b.db")).mode & 0o777).toBe(0o600);
    expect(readdirSync(box.dir).filter((f) => f.includes(".partial-"))).toEqual([]);

    writeFileSync(join(box.dir, "junk.db"), "this is not a database at all, just text ".repeat(200));
    const junk = await box.run(["restore", "junk.db"]);
    expect(junk.code).toBe(1);
    expect(junk.stderr).toMatch(/not a SQLite|cannot be opened|integrity/);

    const other = new Database(join(box.dir, "other.db"), { create: true });
    other.run("CREATE TABLE t (x)");
    other.close();
    const foreign = await box.run(["restore", "other.db"]);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain("not a parkd store");
    const missing = await box.run(["restore", "nope.db"]);
    expect(missing.code).toBe(1);
    // Nothing was moved aside by the failed attempts.
    expect(readdirSync(box.dataDir).filter((f) => f.includes("before-restore"))).toEqual([]);
    expect((await box.run(["restore", "b.db"])).code).toBe(0);
    // Each restore sets the store aside; one copy is kept, the latest: they never fill the card.
    const asides = () =>
      readdirSync(box.dataDir)
        .filter((f) => f.includes("before-restore"))
        .sort();
    const first = asides();
    expect(first).toHaveLength(1);
    await Bun.sleep(1_100);
    expect((await box.run(["restore", "b.db"])).code).toBe(0);
    const second = asides();
    expect(second).toHaveLength(1);
    expect(second).not.toEqual(first);
  });
});

describe("retention from the command line", () => {
  test("purge --dry-run counts, purge deletes what ended long ago and keeps the rest", async () => {
    const box = newBox();
    expect((await box.run(["migrate"])).code).toBe(0);
    const writer = ticketWriter(join(box.dataDir, "parkd.db"));
    writer.write("old", Date.now() - 100 * DAY);
    writer.write("recent", Date.now() - 10 * DAY);
    writer.write("running", null);
    writer.close();
    const dry = await box.run(["purge", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("would delete: 1 tickets, 1 ticket events");
    expect(ticketIds(join(box.dataDir, "parkd.db")).sort()).toEqual(["old", "recent", "running"]);
    const real = await box.run(["purge"]);
    expect(real.stdout).toContain("deleted: 1 tickets, 1 ticket events");
    expect(ticketIds(join(box.dataDir, "parkd.db")).sort()).toEqual(["recent", "running"]);
    const shorter = await box.run(["purge", "--retention-days", "5"]);
    expect(shorter.stdout).toContain("deleted: 1 tickets");
    expect(ticketIds(join(box.dataDir, "parkd.db"))).toEqual(["running"]);
  });

  test("serve purges by itself at start", async () => {
    const box = newBox();
    expect((await box.run(["migrate"])).code).toBe(0);
    const writer = ticketWriter(join(box.dataDir, "parkd.db"));
    writer.write("old", Date.now() - 40 * DAY);
    writer.write("kept", Date.now() - 20 * DAY);
    writer.close();
    const server = await box.serve(["--http", "--retention-days", "30"]);
    const deadline = Date.now() + 5000;
    while (ticketIds(join(box.dataDir, "parkd.db")).includes("old") && Date.now() < deadline)
      await Bun.sleep(20);
    expect(ticketIds(join(box.dataDir, "parkd.db"))).toEqual(["kept"]);
    expect(await server.stop("SIGTERM")).toBe(0);
  });
});

describe("serve for the operator", () => {
  test("start-up summary, metrics counted once through the front end, docs and OpenAPI", async () => {
    const box = newBox();
    const admin = await box.token("monitor", "admin");
    const server = await box.serve(["--http", "--metrics-token", "scrape-0123456789abcdef"]);
    const err = server.stderr();
    expect(err).toContain(`http://127.0.0.1:${server.port}`);
    expect(err).toMatch(/data folder \S+data, schema version \d+/);
    expect(err).toContain("0 tickets, 0 permits, 0 lots, 1 tokens, 0 users");
    expect(err).toContain("plain HTTP");

    for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/api/v1/whoami`)).status).toBe(401);
    const big = await fetch(`${server.url}/readyz`, { method: "POST", body: "x".repeat(70 * 1024) });
    expect(big.status).toBe(413);
    const m = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${admin}` } });
    expect(m.status).toBe(200);
    const text = await m.text();
    expect(text).toContain('parkd_http_requests_total{method="GET",route="/api/v1/whoami",status="401"} 3\n');
    expect(text).toContain('parkd_http_requests_total{method="POST",route="(body limit)",status="413"} 1\n');
    expect(text).toMatch(/parkd_store_file_bytes\{file="db"\} [1-9]\d*/);
    const byToken = await fetch(`${server.url}/metrics`, {
      headers: { authorization: "Bearer scrape-0123456789abcdef" },
    });
    expect(byToken.status).toBe(200);

    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/api/v1/whoami"]).toBeDefined();
    const docs = await fetch(`${server.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).not.toMatch(/(?:src|href)=["']?(?:[a-z]+:|\/\/)/i);

    const started = performance.now();
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(server.stderr()).toContain(`"msg":"stopped"`);
  });

  test("version names version, commit and schema; help lists the operations commands", async () => {
    const box = newBox();
    const v = await box.run(["version"]);
    expect(v.stdout).toMatch(/^parkd \d+\.\d+\.\d+ \(commit [0-9a-f]{7,}(-dirty)?, schema \d+, bun /);
    const help = await box.run(["--help"]);
    for (const c of ["backup", "restore", "purge"]) expect(help.stdout).toContain(c);
    expect((await box.run(["backup"])).code).toBe(2);
    expect(existsSync(join(box.dir, "data", "parkd.db"))).toBe(false);
  });
});
