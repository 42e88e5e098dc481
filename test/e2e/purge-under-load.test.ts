import { describe, expect, test } from "bun:test";
import { boxesForFile } from "../support/binary.ts";

const newBox = boxesForFile();
const DAY = 86_400_000;

function event(id: string, startMs: number, endMs: number) {
  return {
    eventType: "CreateOrUpdate",
    ticketId: id,
    zoneCode: "1234",
    parkingLotId: null,
    startDate: new Date(startMs).toISOString(),
    endDate: new Date(endMs).toISOString(),
    licenseNumber: `PU${id.slice(-4)}`,
    ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
  };
}

describe("parkd purge beside a serving box", () => {
  test("completes while terminals post events: short immediate transactions, retried when the store is busy", async () => {
    const box = newBox();
    const writer = await box.token("terminal", "tickets:write");
    const server = await box.serve(["--http"]);
    const post = (body: unknown) =>
      fetch(`${server.url}/api/v1/actions/tickets`, {
        method: "POST",
        headers: { authorization: `Bearer ${writer}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    // 1,500 tickets that ended 200 days ago: what retention (90 days) deletes.
    const old = Date.now() - 200 * DAY;
    for (let i = 0; i < 1500; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, k) =>
          post(event(`old-${i + k}`, old, old + 3_600_000)).then((r) => r.text()),
        ),
      );
    // Terminals keep posting while purge runs.
    let stop = false;
    let posted = 0;
    let failed = 0;
    const load = (async () => {
      while (!stop) {
        const now = Date.now();
        const rs = await Promise.all(
          Array.from({ length: 10 }, () => post(event(`new-${posted++}`, now - 60_000, now + 3_600_000))),
        );
        for (const r of rs) if (r.status !== 200) failed++;
      }
    })();
    try {
      await Bun.sleep(100);
      const purge = await box.run(["purge", "--retention-days", "90"]);
      expect(purge.stderr).toBe("");
      expect(purge.code).toBe(0);
      expect(purge.stdout).toContain("deleted: 1500 tickets, 1500 ticket events");
    } finally {
      stop = true;
      await load;
    }
    expect(posted).toBeGreaterThan(0);
    expect(failed).toBe(0);
    const dry = await box.run(["purge", "--retention-days", "90", "--dry-run"]);
    expect(dry.stdout).toContain("would delete: 0 tickets");
    expect(await server.stop("SIGTERM")).toBe(0);
  }, 60_000);
});
