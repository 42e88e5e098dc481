import { describe, expect, test } from "bun:test";
import { call, request, testApp } from "../../support/app.ts";
import { StreamReader } from "../../support/event-stream.ts";

const FEED = "/api/v1/tickets/zone/7/events";
const endedOf = (text: string) => /event: ended\ndata: (.*)\n/.exec(text)?.[1];

async function openFeed(s: ReturnType<typeof testApp>, auth: { token?: string; cookie?: string }) {
  const headers = auth.cookie ? { cookie: auth.cookie } : undefined;
  const res = await s.app.handle(request("GET", FEED, { token: auth.token, headers }));
  expect(res.status).toBe(200);
  const reader = new StreamReader(res);
  await reader.until((t) => t.includes("event: plates"));
  return reader;
}

/** Resolves once the stream has ended, with how long that took after `since`. */
async function endsWithin(reader: StreamReader, since: number): Promise<number> {
  await reader.until(() => false, 3_000).catch((e: Error) => expect(e.message).toContain("stream ended"));
  return performance.now() - since;
}

describe("a credential that ends closes its live feeds", () => {
  test("a token revoked through the API: at once, with a last event saying why; sessions end too", async () => {
    const s = testApp();
    const made = s.credentials.createToken({ name: "handheld-3", scopes: ["permits:read"] });
    const other = s.token("permits:read");
    const mine = await openFeed(s, { token: made.token });
    const theirs = await openFeed(s, { token: other });
    const signIn = await call(s.app, "POST", "/api/v1/session", { body: { token: made.token } });
    expect(s.sessions.size).toBe(1);
    const started = performance.now();
    const admin = s.token("admin");
    expect((await call(s.app, "DELETE", `/api/v1/tokens/${made.id}`, { token: admin })).status).toBe(204);
    expect(await endsWithin(mine, started)).toBeLessThan(1_000);
    expect(JSON.parse(endedOf(mine.text)!)).toEqual({ reason: "revoked" });
    expect(s.sessions.size).toBe(0);
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect((await call(s.app, "GET", "/api/v1/session", { headers: { cookie } })).status).toBe(401);
    // Another credential's feed goes on.
    expect(endedOf(theirs.text)).toBeUndefined();
    await Bun.sleep(500);
    expect(endedOf(theirs.text)).toBeUndefined();
    await theirs.cancel();
  });

  test("a token revoked by another process (the CLI writes the store): within a second", async () => {
    const s = testApp();
    const made = s.credentials.createToken({ name: "handheld-4", scopes: ["permits:read"] });
    const feed = await openFeed(s, { token: made.token });
    const started = performance.now();
    s.ctx.store.credentials.revokeToken(made.id, Date.now());
    expect(await endsWithin(feed, started)).toBeLessThan(1_000);
    expect(JSON.parse(endedOf(feed.text)!)).toEqual({ reason: "ended" });
  });

  test("a user deleted through the API: the feed of their browser session ends", async () => {
    const s = testApp();
    await s.user("attendant-9", "correct horse battery", "permits:read");
    const signIn = await call(s.app, "POST", "/api/v1/session", {
      body: { username: "attendant-9", password: "correct horse battery" },
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
    const feed = await openFeed(s, { cookie });
    const started = performance.now();
    s.credentials.deleteUser("attendant-9");
    expect(await endsWithin(feed, started)).toBeLessThan(1_000);
    expect(JSON.parse(endedOf(feed.text)!)).toEqual({ reason: "deleted" });
    expect(s.sessions.size).toBe(0);
  });
});
