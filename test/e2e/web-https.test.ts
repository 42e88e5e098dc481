import { describe, expect, test } from "bun:test";
import { boxesForFile } from "../support/binary.ts";

const newBox = boxesForFile();
const insecure = { tls: { rejectUnauthorized: false } };

/** The web app behind the box's own TLS: the page, a Secure session cookie, and a live feed. */
describe("the web app over HTTPS", () => {
  test("Secure cookie, the page under its policy, and the zone feed streaming through TLS", async () => {
    const box = newBox();
    const admin = await box.token("console", "admin");
    const terminal = await box.token("terminal-1", "tickets:write");
    const server = await box.serve([]);
    expect(server.url).toStartWith("https://");

    const page = await fetch(`${server.url}/`, insecure);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");

    const signIn = await fetch(`${server.url}/api/v1/session`, {
      ...insecure,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: admin }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get("set-cookie")!;
    expect(cookie).toMatch(
      /^parkd_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=43200$/,
    );
    const me = await fetch(`${server.url}/api/v1/session`, {
      ...insecure,
      headers: { cookie: cookie.split(";")[0]! },
    });
    expect(me.status).toBe(200);

    const feed = await fetch(`${server.url}/api/v1/tickets/zone/3/events`, {
      ...insecure,
      headers: { cookie: cookie.split(";")[0]! },
    });
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toStartWith("text/event-stream");
    const reader = feed.body!.getReader();
    const dec = new TextDecoder();
    let text = "";
    while (!text.includes('data: {"data":[]}')) text += dec.decode((await reader.read()).value);
    const sent = await fetch(`${server.url}/api/v1/actions/tickets`, {
      ...insecure,
      method: "POST",
      headers: { authorization: `Bearer ${terminal}`, "content-type": "application/json" },
      body: JSON.stringify({
        eventType: "TicketCreated",
        ticketId: "H1",
        zoneCode: "3",
        parkingLotId: null,
        startDate: new Date(Date.now() - 60_000).toISOString(),
        endDate: new Date(Date.now() + 3_600_000).toISOString(),
        licenseNumber: "TLS001",
        ticketCost: { amountInclVat: 100, vatRate: 25, currencyCode: "SEK" },
      }),
    });
    expect(sent.status).toBe(200);
    const deadline = Date.now() + 3_000;
    while (!text.includes("TLS001") && Date.now() < deadline) text += dec.decode((await reader.read()).value);
    expect(text).toContain('data: {"data":["TLS001"]}');
    await reader.cancel();
    expect(await server.stop()).toBe(0);
  }, 60_000);
});
