import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Box } from "../support/binary.ts";
import { jpegHead, notPhotos } from "../support/photos.ts";

const box = new Box();
const other = new Box();
afterAll(async () => {
  await box.cleanup();
  await other.cleanup();
});
/** What the first test stored, for the backup's. */
const kept: { hash: string; photo: Uint8Array } = { hash: "", photo: new Uint8Array() };

/**
 * The binary's own front end: a photo is larger than the JSON body limit and passes on its route
 * alone; it lands in the data folder's photos/, named by its hash.
 */
describe("notices through the binary", () => {
  test("a 450 KB photo passes on the photo route, is kept in photos/; the same size elsewhere is 413", async () => {
    const admin = await box.token("ops", "admin");
    const handheld = await box.token("handheld-1", "permits:read", "notices:write");
    const server = await box.serve(["--http"]);
    const json = (token: string) => ({
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
    });
    const reason = await fetch(`${server.url}/api/v1/notice-reasons`, {
      method: "POST",
      headers: json(admin),
      body: JSON.stringify({ code: "no-permit", title: "No valid permit", amount: 50000 }),
    });
    expect(reason.status).toBe(201);
    const id = "e2e-notice-0001";
    const issued = await fetch(`${server.url}/api/v1/attendants/notices`, {
      method: "POST",
      headers: json(handheld),
      body: JSON.stringify({
        id,
        registration_number: "ABC123",
        zone: 1002,
        verdict: "none",
        reason: "no-permit",
        observed_at: new Date().toISOString(),
      }),
    });
    expect(issued.status).toBe(201);
    expect((await issued.json()).data.number).toBe(1);
    const photo = jpegHead(1600, 1200, 450 * 1024);
    const sent = await fetch(`${server.url}/api/v1/attendants/notices/${id}/photos`, {
      method: "POST",
      headers: { authorization: `Bearer ${handheld}`, "content-type": "image/jpeg" },
      body: photo as Uint8Array<ArrayBuffer>,
    });
    expect(sent.status).toBe(201);
    const { hash } = (await sent.json()).data;
    kept.hash = hash;
    kept.photo = photo;
    const file = join(box.dataDir, "photos", hash);
    expect(existsSync(file)).toBe(true);
    expect(Buffer.from(readFileSync(file)).equals(Buffer.from(photo))).toBe(true);
    const elsewhere = await fetch(`${server.url}/api/v1/attendants/notices`, {
      method: "POST",
      headers: { authorization: `Bearer ${handheld}`, "content-type": "image/jpeg" },
      body: photo as Uint8Array<ArrayBuffer>,
    });
    expect(elsewhere.status).toBe(413);
    const tooBig = await fetch(`${server.url}/api/v1/attendants/notices/${id}/photos`, {
      method: "POST",
      headers: { authorization: `Bearer ${handheld}`, "content-type": "image/jpeg" },
      body: jpegHead(1600, 1200, 500 * 1024 + 1) as Uint8Array<ArrayBuffer>,
    });
    expect(tooBig.status).toBe(413);
  }, 30_000);

  test("a backup made while serving is one file that carries the photo; restored on another box, the photo is served", async () => {
    const file = join(box.dir, "nightly.db");
    const backup = await box.run(["backup", file]);
    expect(backup.code).toBe(0);
    expect(backup.stderr).toContain(
      "store integrity ok, 1 photos (each checked against its hash when restored)",
    );
    const restored = await other.run(["restore", file]);
    expect(restored.code).toBe(0);
    expect(restored.stderr).toContain("1 photos)");
    expect(
      Buffer.from(readFileSync(join(other.dataDir, "photos", kept.hash))).equals(Buffer.from(kept.photo)),
    ).toBe(true);
    const admin = await other.token("ops-2", "admin");
    const server = await other.serve(["--http"]);
    const served = await fetch(`${server.url}/api/v1/notices/1/photos/${kept.hash}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(kept.photo))).toBe(true);
  }, 30_000);
});

describe.each([
  ["HTTPS", true],
  ["plain HTTP", false],
])("files that only look like photos, through the binary over %s", (_, tls) => {
  test("each kind is refused 400 photo-invalid, saying why, and nothing lands in photos/", async () => {
    const b = new Box();
    try {
      const admin = await b.token("ops", "admin");
      const handheld = await b.token("handheld-1", "permits:read", "notices:write");
      const server = await b.serve(tls ? [] : ["--http"]);
      const ask = (
        path: string,
        token: string,
        init: { method: string; body: string | Uint8Array; type: string },
      ) =>
        fetch(`${server.url}${path}`, {
          method: init.method,
          headers: { authorization: `Bearer ${token}`, "content-type": init.type },
          body: init.body as BodyInit,
          tls: { rejectUnauthorized: false },
        });
      const reason = JSON.stringify({ code: "no-permit", title: "No valid permit", amount: 50000 });
      expect(
        (
          await ask("/api/v1/notice-reasons", admin, {
            method: "POST",
            body: reason,
            type: "application/json",
          })
        ).status,
      ).toBe(201);
      const id = "e2e-not-a-photo";
      const notice = JSON.stringify({
        id,
        registration_number: "ABC123",
        zone: 1002,
        verdict: "none",
        reason: "no-permit",
        observed_at: new Date().toISOString(),
      });
      expect(
        (
          await ask("/api/v1/attendants/notices", handheld, {
            method: "POST",
            body: notice,
            type: "application/json",
          })
        ).status,
      ).toBe(201);
      for (const p of notPhotos()) {
        const r = await ask(`/api/v1/attendants/notices/${id}/photos`, handheld, {
          method: "POST",
          body: p.bytes,
          type: p.type,
        });
        const body = (await r.json()) as { type: string; detail: string };
        expect(`${p.kind}: ${r.status} ${body.type}`).toBe(`${p.kind}: 400 /problems/photo-invalid`);
        expect(body.detail).toContain(p.why);
      }
      const dir = join(b.dataDir, "photos");
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
      const whole = await ask(`/api/v1/attendants/notices/${id}/photos`, handheld, {
        method: "POST",
        body: jpegHead(800, 600, 20_000),
        type: "image/jpeg",
      });
      expect(whole.status).toBe(201);
      expect(await server.stop("SIGTERM")).toBe(0);
    } finally {
      await b.cleanup();
    }
  }, 30_000);
});
