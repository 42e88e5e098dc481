import { describe, expect, test } from "bun:test";
import { boxesForFile } from "../support/binary.ts";

const newBox = boxesForFile();
const tls = { rejectUnauthorized: false };

/** Reads a live zone feed of the served binary until it ends; resolves with all it read. */
async function feedOf(url: string, token: string) {
  const res = await fetch(`${url}/api/v1/tickets/zone/7/events`, {
    headers: { authorization: `Bearer ${token}` },
    tls,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let endedAt = 0;
  const done = (async () => {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      text += decoder.decode(next.value, { stream: true });
    }
    endedAt = performance.now();
  })();
  const deadline = Date.now() + 5_000;
  while (!text.includes("event: plates") && Date.now() < deadline) await Bun.sleep(10);
  return {
    text: () => text,
    /** Resolves with when the stream ended, or rejects after `ms`. */
    ended: (ms: number) =>
      Promise.race([
        done.then(() => endedAt),
        Bun.sleep(ms).then(() => {
          throw new Error(`feed still open after ${ms} ms: ${text}`);
        }),
      ]),
    cancel: () => reader.cancel(),
  };
}

describe("revocation reaches open feeds of the served binary (HTTPS)", () => {
  test("parkd token revoke in another process closes the token's feeds within a second", async () => {
    const box = newBox();
    const handheld = await box.token("handheld-1", "permits:read");
    const other = await box.token("handheld-2", "permits:read");
    const server = await box.serve([]);
    const mine = await feedOf(server.url, handheld);
    const theirs = await feedOf(server.url, other);
    const revoke = await box.run(["token", "revoke", "handheld-1"]);
    const revokedAt = performance.now();
    expect(revoke.code).toBe(0);
    const endedAt = await mine.ended(2_000);
    expect(endedAt - revokedAt).toBeLessThan(1_000);
    expect(mine.text()).toContain('event: ended\ndata: {"reason":"ended"}');
    expect(theirs.text()).not.toContain("event: ended");
    await theirs.cancel();
    // And refused by the API within half a second of the revocation (its row is cached that long).
    let status = 0;
    const deadline = revokedAt + 1_000;
    while (performance.now() < deadline && status !== 401) {
      const r = await fetch(`${server.url}/api/v1/tickets/zone/7`, {
        headers: { authorization: `Bearer ${handheld}` },
        tls,
      });
      status = r.status;
      await r.arrayBuffer();
      if (status !== 401) await Bun.sleep(50);
    }
    expect(status).toBe(401);
  });

  test("a token revoked through the API: its feed ends at once, saying it was revoked", async () => {
    const box = newBox();
    const handheld = await box.token("handheld-1", "permits:read");
    const admin = await box.token("office", "admin");
    const server = await box.serve([]);
    const list = await fetch(`${server.url}/api/v1/tokens`, {
      headers: { authorization: `Bearer ${admin}` },
      tls,
    });
    const id = ((await list.json()) as { data: { id: string; name: string }[] }).data.find(
      (t) => t.name === "handheld-1",
    )!.id;
    const feed = await feedOf(server.url, handheld);
    const started = performance.now();
    const del = await fetch(`${server.url}/api/v1/tokens/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${admin}` },
      tls,
    });
    expect(del.status).toBe(204);
    expect((await feed.ended(2_000)) - started).toBeLessThan(1_000);
    expect(feed.text()).toContain('event: ended\ndata: {"reason":"revoked"}');
  });
});

describe("--public-url", () => {
  test("is what sign-in codes point to; a URL that is not http(s) is a usage error", async () => {
    const box = newBox();
    for (const bad of ["ftp://box.lan", "box.lan:8443", "https://box.lan/?x=1"]) {
      const r = await box.run(["serve", "--http", "--port", "0", "--public-url", bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("--public-url");
    }
    const admin = await box.token("office", "admin");
    const server = await box.serve(["--http", "--public-url", "https://parking-box.lan:8443/"]);
    const made = await fetch(`${server.url}/api/v1/tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "handheld-7", scopes: ["permits:read"] }),
    });
    const { id } = ((await made.json()) as { data: { id: string } }).data;
    const code = await fetch(`${server.url}/api/v1/session/codes`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
      body: JSON.stringify({ token_id: id }),
    });
    const data = ((await code.json()) as { data: { sign_in_url: string; reachable: boolean } }).data;
    expect(data.sign_in_url).toMatch(/^https:\/\/parking-box\.lan:8443\/#code=[A-Za-z0-9_-]{32}$/);
    expect(data.reachable).toBe(true);
  });
});
