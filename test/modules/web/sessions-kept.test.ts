import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { composeBox } from "../../../src/app.ts";
import { createContext } from "../../../src/context.ts";
import { CredentialService } from "../../../src/modules/admin/credentials/service.ts";
import {
  IDLE_MS,
  MAX_SESSIONS,
  MAX_SESSIONS_PER_CREDENTIAL,
  USE_WRITE_MS,
} from "../../../src/modules/web/sessions.ts";
import { openStore } from "../../../src/platform/store/db.ts";
import { call, expectProblem, type TestClock, testClock } from "../../support/app.ts";

const SESSION = "/api/v1/session";
const HOUR = 3_600_000;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "parkd-sessions-"));
  dirs.push(dir);
  return dir;
}

/**
 * A box over the store in `dir`, as `serve` runs it: its background work started (the sweep at
 * start), and a stop that ends it as SIGTERM does (the uses held in memory are written).
 */
function boxOn(dir: string, clock: TestClock) {
  const store = openStore(dir);
  const ctx = createContext(
    store,
    { timezone: "Europe/Stockholm", rateLimitPerSecond: 0, publicRateLimitPerSecond: 0 },
    clock.now,
  );
  const box = composeBox(ctx);
  const stopSessions = box.sessions.start();
  return {
    ...box,
    store,
    rows: () =>
      store.sqlite
        .query<Record<string, unknown>, []>("SELECT * FROM browser_sessions ORDER BY created_at")
        .all(),
    stop() {
      stopSessions();
      box.credentials.stop();
      store.close();
    },
  };
}

async function signIn(app: { handle(r: Request): Promise<Response> | Response }, body: unknown) {
  const res = await call(app, "POST", SESSION, { body });
  expect(res.status).toBe(200);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
  return { cookie, id: cookie.split("=")[1]!, csrf: res.json.data.csrf as string };
}

const reasonOf = async (app: { handle(r: Request): Promise<Response> | Response }, cookie: string) => {
  const r = await call(app, "GET", SESSION, { headers: { cookie } });
  expectProblem(r, 401, "unauthorized");
  return r.json.reason as string | undefined;
};

describe("sessions kept in the store", () => {
  test("a session made before a restart is honoured after it: same identity, same csrf value", async () => {
    const dir = dataDir();
    const clock = testClock();
    const before = boxOn(dir, clock);
    const admin = before.credentials.createToken({ name: "console", scopes: ["admin"] });
    const s = await signIn(before.app, { token: admin.token });
    before.stop();

    clock.advance(HOUR);
    const after = boxOn(dir, clock);
    const again = await call(after.app, "GET", SESSION, { headers: { cookie: s.cookie } });
    expect(again.status).toBe(200);
    expect(again.json.data).toMatchObject({
      kind: "token",
      name: "console",
      scopes: ["admin"],
      csrf: s.csrf,
    });
    // A write through the session after the restart, with the csrf value the page was given.
    const made = await call(after.app, "POST", "/api/v1/tokens", {
      body: { name: "handheld-7", scopes: ["permits:read"] },
      headers: { cookie: s.cookie, "x-csrf-token": s.csrf },
    });
    expect(made.status).toBe(201);
    expectProblem(
      await call(after.app, "POST", "/api/v1/tokens", {
        body: { name: "handheld-8", scopes: ["permits:read"] },
        headers: { cookie: s.cookie },
      }),
      403,
      "csrf",
    );
    after.stop();
  });

  test("the store holds neither the cookie's id nor the csrf value", async () => {
    const dir = dataDir();
    const box = boxOn(dir, testClock());
    const made = box.credentials.createToken({ name: "handheld-1", scopes: ["permits:read"] });
    const s = await signIn(box.app, { token: made.token });
    const rows = box.rows();
    expect(rows).toEqual([
      {
        id_hash: new Bun.CryptoHasher("sha256").update(s.id).digest("hex"),
        credential_kind: "token",
        credential_id: made.id,
        created_at: Date.parse("2026-06-15T10:00:00Z"),
        seen_at: Date.parse("2026-06-15T10:00:00Z"),
        expires_at: Date.parse("2026-06-15T10:00:00Z") + IDLE_MS,
      },
    ]);
    box.stop();
    // Nor does any page of the file, the write-ahead log included, or a backup made from it.
    const files = ["parkd.db", "parkd.db-wal"].map((f) => join(dir, f)).filter((f) => existsSync(f));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const bytes = await Bun.file(f).text();
      expect(bytes).not.toContain(s.id);
      expect(bytes).not.toContain(s.csrf);
    }
  });

  test("a use is written at most every few minutes, the last one at stop; a restart goes by it", async () => {
    const dir = dataDir();
    const clock = testClock();
    const before = boxOn(dir, clock);
    const made = before.credentials.createToken({ name: "handheld-1", scopes: ["permits:read"] });
    const s = await signIn(before.app, { token: made.token });
    const created = clock.now();
    clock.advance(10 * HOUR);
    expect((await call(before.app, "GET", SESSION, { headers: { cookie: s.cookie } })).status).toBe(200);
    // The request wrote nothing: the use is held in memory.
    expect(before.rows()[0]!.seen_at).toBe(created);
    before.sessions.writeUses();
    expect(before.rows()[0]).toMatchObject({ seen_at: created + 10 * HOUR, expires_at: created + 22 * HOUR });
    clock.advance(USE_WRITE_MS / 5);
    expect((await call(before.app, "GET", SESSION, { headers: { cookie: s.cookie } })).status).toBe(200);
    before.stop();
    const after = boxOn(dir, clock);
    expect(after.rows()[0]!.seen_at).toBe(created + 10 * HOUR + USE_WRITE_MS / 5);
    // Unused for 12 hours after its last use, across the restart: it ends, and says so.
    clock.advance(11 * HOUR);
    expect((await call(after.app, "GET", SESSION, { headers: { cookie: s.cookie } })).status).toBe(200);
    clock.advance(12 * HOUR + 1);
    expect(await reasonOf(after.app, s.cookie)).toBe("expired");
    expect(after.rows()).toEqual([]);
    after.stop();
  });

  test("however busy, a session ends after 7 days, across restarts", async () => {
    const dir = dataDir();
    const clock = testClock();
    let box = boxOn(dir, clock);
    const made = box.credentials.createToken({ name: "handheld-1", scopes: ["permits:read"] });
    const s = await signIn(box.app, { token: made.token });
    for (let day = 1; day <= 7; day++) {
      for (let h = 0; h < 24; h += 8) {
        clock.advance(8 * HOUR);
        expect((await call(box.app, "GET", SESSION, { headers: { cookie: s.cookie } })).status).toBe(200);
      }
      box.stop();
      box = boxOn(dir, clock);
    }
    clock.advance(1);
    expect(await reasonOf(box.app, s.cookie)).toBe("expired");
    expect(box.rows()).toEqual([]);
    box.stop();
  });

  test("expired sessions are deleted when the box starts, and by the hourly sweep", async () => {
    const dir = dataDir();
    const clock = testClock();
    const first = boxOn(dir, clock);
    const made = first.credentials.createToken({ name: "handheld-1", scopes: ["permits:read"] });
    const old = await signIn(first.app, { token: made.token });
    clock.advance(6 * HOUR);
    const fresh = await signIn(first.app, { token: made.token });
    first.stop();
    clock.advance(7 * HOUR);
    const second = boxOn(dir, clock);
    expect(second.rows().map((r) => r.id_hash)).toEqual([
      new Bun.CryptoHasher("sha256").update(fresh.id).digest("hex"),
    ]);
    expect(await reasonOf(second.app, old.cookie)).toBe("expired");
    // Used since (in memory only): the sweep leaves it, though the store's row says it ended.
    clock.advance(4 * HOUR);
    expect((await call(second.app, "GET", SESSION, { headers: { cookie: fresh.cookie } })).status).toBe(200);
    clock.advance(2 * HOUR);
    expect(second.sessions.sweep()).toBe(0);
    clock.advance(11 * HOUR);
    expect(second.sessions.sweep()).toBe(1);
    expect(second.rows()).toEqual([]);
    expect(await reasonOf(second.app, fresh.cookie)).toBe("expired");
    second.stop();
  });

  test("revoking a token or deleting a user ends sessions made before a restart at once", async () => {
    const dir = dataDir();
    const clock = testClock();
    const before = boxOn(dir, clock);
    const made = before.credentials.createToken({ name: "handheld-1", scopes: ["permits:read"] });
    const kept = before.credentials.createToken({ name: "handheld-2", scopes: ["permits:read"] });
    await before.credentials.createUser({
      name: "attendant-2",
      scopes: ["permits:read"],
      password: "correct horse battery",
    });
    const t1 = await signIn(before.app, { token: made.token });
    const t2 = await signIn(before.app, { token: made.token });
    const other = await signIn(before.app, { token: kept.token });
    const u = await signIn(before.app, { username: "attendant-2", password: "correct horse battery" });
    before.stop();

    const after = boxOn(dir, clock);
    expect(after.rows()).toHaveLength(4);
    const admin = after.credentials.createToken({ name: "console", scopes: ["admin"] }).token;
    expect((await call(after.app, "DELETE", `/api/v1/tokens/${made.id}`, { token: admin })).status).toBe(204);
    // Deleted with the token, before any of its browsers asks again.
    expect(after.rows().map((r) => r.credential_id)).not.toContain(made.id);
    expect(await reasonOf(after.app, t1.cookie)).toBe("revoked");
    expect(await reasonOf(after.app, t2.cookie)).toBe("revoked");
    const userId = after.credentials.listUsers()[0]!.id;
    expect((await call(after.app, "DELETE", `/api/v1/users/${userId}`, { token: admin })).status).toBe(204);
    expect(after.rows().map((r) => r.credential_kind)).toEqual(["token"]);
    expect(await reasonOf(after.app, u.cookie)).toBe("deleted");
    expect((await call(after.app, "GET", SESSION, { headers: { cookie: other.cookie } })).status).toBe(200);
    after.stop();
  });

  test("a token revoked by the command line while the box runs: its sessions go with it", async () => {
    const dir = dataDir();
    const clock = testClock();
    const box = boxOn(dir, clock);
    const made = box.credentials.createToken({ name: "handheld-1", scopes: ["permits:read"] });
    const s = await signIn(box.app, { token: made.token });
    // The CLI's own connection and service, as `parkd token revoke` runs beside `serve`.
    const cliStore = openStore(dir, { create: false });
    new CredentialService(cliStore, clock.now).revokeToken("handheld-1");
    cliStore.close();
    expect(box.rows()).toEqual([]);
    expect(await reasonOf(box.app, s.cookie)).toBe("revoked");
    box.stop();
  });
});

describe("the caps, by last use", () => {
  test("past 50 a credential's least recently used goes, uses held in memory counted", async () => {
    const dir = dataDir();
    const clock = testClock();
    const box = boxOn(dir, clock);
    const made = box.credentials.createToken({ name: "handheld-1", scopes: ["permits:read"] });
    const cookies: string[] = [];
    for (let i = 0; i < MAX_SESSIONS_PER_CREDENTIAL; i++) {
      clock.advance(1_000);
      cookies.push((await signIn(box.app, { token: made.token })).cookie);
    }
    clock.advance(1_000);
    // The first one is used again (in memory only): the second is now the least recently used.
    expect((await call(box.app, "GET", SESSION, { headers: { cookie: cookies[0]! } })).status).toBe(200);
    clock.advance(1_000);
    await signIn(box.app, { token: made.token });
    expect(box.rows()).toHaveLength(MAX_SESSIONS_PER_CREDENTIAL);
    expect((await call(box.app, "GET", SESSION, { headers: { cookie: cookies[0]! } })).status).toBe(200);
    expect(await reasonOf(box.app, cookies[1]!)).toBe("ended");
    box.stop();
  });

  test(`past ${MAX_SESSIONS} in all the least recently used goes`, () => {
    const clock = testClock();
    const box = boxOn(dataDir(), clock);
    // One more credential than the sessions need, for the session past the cap.
    const credentials = Array.from(
      { length: MAX_SESSIONS / MAX_SESSIONS_PER_CREDENTIAL + 1 },
      (_, i) =>
        box.credentials.current(
          "token",
          box.credentials.createToken({ name: `h-${i}`, scopes: ["permits:read"] }).id,
        )!,
    );
    const ids: string[] = [];
    box.store.transaction(() => {
      for (let i = 0; i < MAX_SESSIONS; i++) {
        clock.advance(1);
        ids.push(box.sessions.open(credentials[i % (credentials.length - 1)]!).id);
      }
    })();
    expect(box.sessions.size).toBe(MAX_SESSIONS);
    const cookieOf = (id: string) =>
      new Request("http://localhost/", { headers: { cookie: `parkd_session=${id}` } });
    clock.advance(1);
    expect(box.sessions.view(cookieOf(ids[0]!))).not.toBeNull();
    clock.advance(1);
    box.sessions.open(credentials.at(-1)!);
    expect(box.sessions.size).toBe(MAX_SESSIONS);
    expect(box.sessions.view(cookieOf(ids[0]!))).not.toBeNull();
    expect(box.sessions.view(cookieOf(ids[1]!))).toBeNull();
    expect(box.sessions.lostReason(cookieOf(ids[1]!))).toBe("ended");
    box.stop();
  }, 60_000);
});
