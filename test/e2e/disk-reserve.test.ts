/**
 * The reserve kept for ticket events, on the binary and the real disk: a reserve larger than what
 * the disk has free puts the box at it. Photos are refused with the reason and the notice kept;
 * ticket events go on; the log, /readyz and doctor say so; retention deletes the oldest records
 * beyond what the disk holds, never those younger than the minimum of days.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { statfsSync } from "node:fs";
import { join } from "node:path";
import { boxesForFile } from "../support/binary.ts";
import { jpegHead } from "../support/photos.ts";

const newBox = boxesForFile();
const DAY = 86_400_000;

describe("a disk at the reserve kept for ticket events", () => {
  test("refuses photos, takes ticket events, trims the oldest records down to the minimum of days, and says so everywhere", async () => {
    const box = newBox();
    const admin = await box.token("ops", "admin");
    const handheld = await box.token("handheld-1", "permits:read", "notices:write");
    const terminal = await box.token("terminal-1", "tickets:write");
    // Lookup records from 40 days ago to today, one a day: retention would keep them all (90 days).
    const db = new Database(join(box.dataDir, "parkd.db"));
    const add = db.prepare(
      "INSERT INTO permit_lookups (at, credential, by, query, results) VALUES (?, 'token:h', 'registration_number', ?, 1)",
    );
    for (let d = 0; d <= 40; d++) add.run(Date.now() - d * DAY - 60_000, `OLD${d}`);
    db.close(false);
    const fs = statfsSync(box.dataDir);
    const reserveMb = Math.ceil((fs.bavail * fs.bsize) / 1_048_576) + 1024;
    const server = await box.serve([
      "--http",
      "--disk-reserve-mb",
      String(reserveMb),
      "--retention-min-days",
      "10",
    ]);
    const json = (token: string) => ({
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
    });

    // Ticket events go on.
    const event = await fetch(`${server.url}/api/v1/actions/tickets`, {
      method: "POST",
      headers: json(terminal),
      body: JSON.stringify({
        eventType: "TicketCreated",
        ticketId: "reserve-1",
        zoneCode: 1,
        startDate: new Date().toISOString(),
        licenseNumber: "ABC123",
        ticketCost: {},
      }),
    });
    expect(event.status).toBe(200);

    // A photo is refused, saying why; its notice is kept.
    const reason = await fetch(`${server.url}/api/v1/notice-reasons`, {
      method: "POST",
      headers: json(admin),
      body: JSON.stringify({ code: "no-permit", title: "No valid permit", amount: 50000 }),
    });
    expect(reason.status).toBe(201);
    const issued = await fetch(`${server.url}/api/v1/attendants/notices`, {
      method: "POST",
      headers: json(handheld),
      body: JSON.stringify({
        id: "reserve-notice-1",
        registration_number: "XYZ789",
        zone: 1,
        verdict: "none",
        reason: "no-permit",
        observed_at: new Date().toISOString(),
      }),
    });
    expect(issued.status).toBe(201);
    const photo = await fetch(`${server.url}/api/v1/attendants/notices/reserve-notice-1/photos`, {
      method: "POST",
      headers: { authorization: `Bearer ${handheld}`, "content-type": "image/jpeg" },
      body: jpegHead(1600, 1200, 50 * 1024) as Uint8Array<ArrayBuffer>,
    });
    expect(photo.status).toBe(503);
    const problem = (await photo.json()) as { type: string; detail: string };
    expect(problem.type).toBe("/problems/photo-storage-full");
    expect(problem.detail).toContain(
      `down to the ${reserveMb} MB it keeps for ticket events; notice 1 itself is stored`,
    );

    // /readyz: still ready, and says so.
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { problems: { condition: string; summary: string }[] };
    expect(body.problems.map((p) => p.condition)).toContain("disk-at-reserve");

    // Retention (at start) deleted the oldest records, a day at a time, and kept the last 10 days.
    const deadline = Date.now() + 20_000;
    const kept = () => {
      const store = new Database(join(box.dataDir, "parkd.db"), { readonly: true });
      try {
        return (
          store.query("SELECT count(*) AS n FROM permit_lookups WHERE query LIKE 'OLD%'").get() as {
            n: number;
          }
        ).n;
      } finally {
        store.close(false);
      }
    };
    while (kept() > 10 && Date.now() < deadline) await Bun.sleep(100);
    expect(kept()).toBe(10); // today's and 9 days back; never younger than 10 days deleted
    const log = server.stderr();
    expect(log).toContain(`the disk is at the ${reserveMb} MB kept for ticket events`);
    expect(log).toContain("with retention down to its minimum of 10 days");

    const metrics = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${admin}` } })
    ).text();
    expect(metrics).toContain(`parkd_disk_reserve_bytes ${reserveMb * 1_048_576}`);
    expect(metrics).toContain(`parkd_retention_kept_seconds ${10 * 86_400}`);

    const doctor = await box.run(["doctor", "--http", "--disk-reserve-mb", String(reserveMb)]);
    expect(doctor.stdout).toContain("kept for ticket events (--disk-reserve-mb)");
    expect(doctor.stdout).toContain(
      "refuses photos (503 photo-storage-full); retention deletes the oldest records",
    );
    expect(await server.stop()).toBe(0);
  }, 60_000);
});
