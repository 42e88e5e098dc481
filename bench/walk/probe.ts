// Run by bench/walk.ts under `bun test --coverage`: a box behind the front end on 127.0.0.1, one
// warm-up request of each kind, then (WALK_EXTRA=1) one more of the kind walked. With
// WALK_DIRECT=1 the front end is as `serve` runs it, answering the plain case itself (direct.ts);
// without, every request goes to the app, as one the front end leaves to it does.
import { test } from "bun:test";
import { composeBox } from "../../src/app.ts";
import { createContext } from "../../src/context.ts";
import { startFrontEnd } from "../../src/platform/http/server.ts";
import { openMemoryStore } from "../../src/platform/store/db.ts";

const kind = process.env.WALK_KIND as "intake" | "lookup";
const extra = process.env.WALK_EXTRA === "1";
const direct = process.env.WALK_DIRECT === "1";

test("walk", async () => {
  const ctx = createContext(openMemoryStore(), { timezone: "Europe/Stockholm", rateLimitPerSecond: 0 });
  const box = composeBox(ctx);
  const front = await startFrontEnd({
    host: "127.0.0.1",
    port: 0,
    bodyLimit: ctx.config.bodyLimit,
    metrics: ctx.metrics,
    handle: box.app.handle,
    ...(direct ? { direct: box.direct, bodyLimitOf: box.bodyLimitOf } : {}),
    account: (entry) => ctx.accounting.finish(entry),
  });
  const base = `http://127.0.0.1:${front.port}`;
  const terminal = box.credentials.createToken({ name: "terminal", scopes: ["tickets:write"] }).token;
  const handheld = box.credentials.createToken({ name: "handheld", scopes: ["permits:read"] }).token;
  let n = 0;
  const post = async () => {
    n++;
    const r = await fetch(`${base}/api/v1/actions/tickets`, {
      method: "POST",
      headers: { authorization: `Bearer ${terminal}`, "content-type": "application/json" },
      body: JSON.stringify({
        eventType: "TicketCreated",
        ticketId: `walk-${n}`,
        zoneCode: "1234",
        parkingLotId: null,
        startDate: new Date(Date.now() - 60_000).toISOString(),
        endDate: new Date(Date.now() + 3_600_000).toISOString(),
        licenseNumber: `WALK${n}`,
        ticketCost: { amountInclVat: 4000, vatRate: 25, currencyCode: "SEK" },
      }),
    });
    if (r.status !== 200) throw new Error(`intake answered ${r.status}: ${await r.text()}`);
  };
  const lookup = async () => {
    const r = await fetch(`${base}/api/v1/attendants/check-tickets?registration_number=WALK1`, {
      headers: { authorization: `Bearer ${handheld}` },
    });
    if (r.status !== 200) throw new Error(`lookup answered ${r.status}: ${await r.text()}`);
    await r.text();
  };
  await post();
  await lookup();
  await Bun.sleep(50);
  // Without the extra request the box waits as long: a timer (a batch's flush, a cache's sweep)
  // then runs as often in both, and is not taken for the request's walk.
  if (extra) await (kind === "intake" ? post() : lookup());
  await Bun.sleep(50);
  await front.close(100);
});
