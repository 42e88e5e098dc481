import { describe, expect, test } from "bun:test";
import { actorOf } from "../../../src/platform/http/actor.ts";
import { call, expectProblem, testApp, testClock } from "../../support/app.ts";
import { cityLot } from "../../support/lots.ts";

function setup() {
  const clock = testClock("2026-06-15T10:00:00Z");
  const s = testApp({}, clock);
  const admin = s.token("admin");
  const changes = async (query = "") => {
    const res = await call(s.app, "GET", `/api/v1/changes${query}`, { token: admin });
    expect(res.status).toBe(200);
    return res.json as { data: Record<string, unknown>[]; next_cursor: string | null };
  };
  return { ...s, clock, admin, changes };
}

describe("the change history of operator writes", () => {
  test("a lot's create, edit and delete: who, when, through what, and only the fields that changed", async () => {
    const s = setup();
    const created = await call(s.app, "POST", "/api/v1/parkings", { token: s.admin, body: cityLot() });
    const id = created.json.data.id;
    s.clock.advance(60_000);
    await call(s.app, "PATCH", `/api/v1/parkings/${id}`, {
      token: s.admin,
      body: { name: "Hamnen", number_of_spaces: 240 },
    });
    // A write that changes nothing leaves no entry
    await call(s.app, "PATCH", `/api/v1/parkings/${id}`, { token: s.admin, body: { name: "Hamnen" } });
    s.clock.advance(60_000);
    await call(s.app, "DELETE", `/api/v1/parkings/${id}`, { token: s.admin });

    const { data } = await s.changes(`?subject=lot&subject_id=${id}`);
    expect(data.map((c) => c.action)).toEqual(["delete", "update", "create"]);
    const [gone, edit, made] = data;
    expect(edit).toMatchObject({
      at: "2026-06-15T10:01:00.000000Z",
      actor: "token:test-1",
      via: "api",
      subject: "lot",
      subject_id: String(id),
      before: { name: "Centrum P-hus" },
      after: { name: "Hamnen" },
    });
    expect(made!.before).toBeNull();
    expect((made!.after as { parking_lot_fee: unknown[] }).parking_lot_fee).toHaveLength(3);
    expect(gone!.after).toBeNull();
    expect((gone!.before as { name: string }).name).toBe("Hamnen");
  });

  test("a write refused by If-Match or by validation leaves no entry", async () => {
    const s = setup();
    const created = await call(s.app, "POST", "/api/v1/parkings", { token: s.admin, body: cityLot() });
    const path = `/api/v1/parkings/${created.json.data.id}`;
    const stale = await call(s.app, "PATCH", path, {
      token: s.admin,
      body: { name: "X" },
      headers: { "if-match": '"old"' },
    });
    expect(stale.status).toBe(412);
    expect((await call(s.app, "PATCH", path, { token: s.admin, body: { max_fee: -1 } })).status).toBe(400);
    expect((await s.changes("?subject=lot")).data.map((c) => c.action)).toEqual(["create"]);
  });

  test("permits, tokens and users are kept too; secrets never are", async () => {
    const s = setup();
    const permit = await call(s.app, "POST", "/api/v1/permits", {
      token: s.admin,
      body: { registration_number: "ABC123", zone: 7, start_at: "2026-06-01T00:00:00Z" },
    });
    const pid = permit.json.data.id;
    await call(s.app, "PATCH", `/api/v1/permits/${pid}`, { token: s.admin, body: { zone: 8 } });
    await call(s.app, "DELETE", `/api/v1/permits/${pid}`, { token: s.admin });
    const token = await call(s.app, "POST", "/api/v1/tokens", {
      token: s.admin,
      body: { name: "handheld-9", scopes: ["permits:read"] },
    });
    await call(s.app, "DELETE", `/api/v1/tokens/${token.json.data.id}`, { token: s.admin });
    const user = await call(s.app, "POST", "/api/v1/users", {
      token: s.admin,
      body: { name: "terminal-9", scopes: ["tickets:write"], password: "correct horse battery" },
    });
    await call(s.app, "DELETE", `/api/v1/users/${user.json.data.id}`, { token: s.admin });
    // The command line goes through the same service, as "cli"
    s.credentials.createToken({ name: "from-cli", scopes: ["admin"] });

    const { data } = await s.changes();
    expect(data.map((c) => `${c.subject} ${c.action} ${c.actor}`)).toEqual([
      "token create cli",
      "user delete token:test-1",
      "user create token:test-1",
      "token revoke token:test-1",
      "token create token:test-1",
      "permit delete token:test-1",
      "permit update token:test-1",
      "permit create token:test-1",
      "token create cli", // the test's own admin token, made through the service as the CLI does
    ]);
    const byKind = Object.fromEntries(data.slice(1, -1).map((c) => [`${c.subject} ${c.action}`, c]));
    expect(byKind["permit update"]).toMatchObject({ before: { zone: 7 }, after: { zone: 8 } });
    expect(data[0]!.after).toEqual({ name: "from-cli", scopes: ["admin"], expires_at: null });
    expect(byKind["token create"]!.after).toEqual({
      name: "handheld-9",
      scopes: ["permits:read"],
      expires_at: null,
    });
    expect(byKind["user create"]!.after).toEqual({ name: "terminal-9", scopes: ["tickets:write"] });
    const text = JSON.stringify(data);
    expect(text).not.toContain(token.json.data.token);
    expect(text).not.toContain("correct horse");
    expect(text).not.toContain("argon2");
  });

  test("an import keeps one entry per created or changed lot; a dry run none", async () => {
    const s = setup();
    const file = {
      data: [
        { id: 3, name: "A", zone_number: 1 },
        { id: 4, name: "B", zone_number: 1 },
      ],
    };
    await call(s.app, "POST", "/api/v1/parkings/import?dry_run=true", { token: s.admin, body: file });
    expect((await s.changes("?subject=lot")).data).toEqual([]);
    await call(s.app, "POST", "/api/v1/parkings/import", { token: s.admin, body: file });
    file.data[1]!.name = "B2";
    await call(s.app, "POST", "/api/v1/parkings/import", { token: s.admin, body: file });
    const { data } = await s.changes("?subject=lot");
    expect(data.map((c) => `${c.subject_id} ${c.action}`)).toEqual(["4 update", "4 create", "3 create"]);
    expect(data[0]).toMatchObject({ before: { name: "B" }, after: { name: "B2" } });
  });

  test("filters by actor and date range, pages by cursor; admin only; bad filters are 400", async () => {
    const s = setup();
    const other = s.token("admin");
    for (let i = 0; i < 5; i++) {
      await call(s.app, "POST", "/api/v1/parkings", {
        token: i % 2 ? other : s.admin,
        body: { name: `L${i}`, zone_number: 1 },
      });
      s.clock.advance(86_400_000);
    }
    expect((await s.changes("?actor=token:test-2")).data.map((c) => c.subject_id)).toEqual(["4", "2"]);
    const range = await s.changes("?subject=lot&from=2026-06-16&to=2026-06-18T00:00:00Z");
    expect(range.data.map((c) => c.subject_id)).toEqual(["3", "2"]);
    const first = await s.changes("?subject=lot&limit=2");
    expect(first.data.map((c) => c.subject_id)).toEqual(["5", "4"]);
    const second = await s.changes(`?subject=lot&limit=2&cursor=${first.next_cursor}`);
    expect(second.data.map((c) => c.subject_id)).toEqual(["3", "2"]);
    const last = await s.changes(`?subject=lot&limit=2&cursor=${second.next_cursor}`);
    expect(last.data.map((c) => c.subject_id)).toEqual(["1"]);
    expect(last.next_cursor).toBeNull();

    const reader = s.token("permits:read");
    expectProblem(await call(s.app, "GET", "/api/v1/changes", { token: reader }), 403, "insufficient-scope");
    for (const q of ["?subject_id=1", "?from=yesterday", "?subject=ticket", "?cursor=zzz"])
      expectProblem(await call(s.app, "GET", `/api/v1/changes${q}`, { token: s.admin }), 400, "validation");
  });

  test("a write without Authorization came from the console (its browser session)", () => {
    const credential = { kind: "user" as const, id: "usr_1", name: "anna", scopes: ["admin" as const] };
    expect(actorOf(credential, new Request("http://x/"))).toEqual({ who: "user:anna", via: "console" });
    const api = new Request("http://x/", { headers: { authorization: "Bearer x" } });
    expect(actorOf(credential, api)).toEqual({ who: "user:anna", via: "api" });
  });
});
