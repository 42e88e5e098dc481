import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { Box } from "../support/binary.ts";

const box = new Box();
afterAll(() => box.cleanup());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * node:http, because fetch will not send a body on a GET, and the interface's example does. The
 * length is declared as curl declares it.
 */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const all =
    body === undefined ? headers : { ...headers, "Content-Length": String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: all }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const json = (token: string) => ({
  Accept: "application/json",
  "Content-Type": "application/json",
  Authorization: `Bearer ${token}`,
});

describe("permit lookups on the built binary", () => {
  test("the interface's request shapes: GET with a JSON body, and the zone list with ETag", async () => {
    const admin = await box.token("office", "admin");
    const handheld = await box.token("handheld-1", "permits:read");
    const terminal = await box.token("terminal-1", "tickets:write");
    const server = await box.serve(["--http", "--timezone", "Europe/Stockholm", "--log-requests"]);

    const made = await fetch(`${server.url}/api/v1/permits`, {
      method: "POST",
      headers: json(admin),
      body: JSON.stringify({
        registration_number: "ABC 123",
        zone: 1234,
        start_at: "2026-01-01T00:00:00",
        end_at: null,
        note: "resident, Storgatan 1",
      }),
    });
    expect(made.status).toBe(201);
    const location = made.headers.get("location")!;
    expect(location).toMatch(/^\/api\/v1\/permits\/\d+$/);

    // curl -X GET {base_url}/api/v1/attendants/check-tickets -H 'Accept: application/json'
    //   -H 'Content-Type: application/json' -H 'Authorization: Bearer …' -d '{"zone":"1234"}'
    const byZone = await send(
      `${server.url}/api/v1/attendants/check-tickets`,
      "GET",
      json(handheld),
      '{"zone":"1234"}',
    );
    expect(byZone.status).toBe(200);
    expect(byZone.headers["content-type"]).toStartWith("application/json");
    expect(JSON.parse(byZone.body)).toEqual([
      {
        registration_number: "ABC 123",
        zone: 1234,
        active: true,
        start_at: "2025-12-31T23:00:00.000000Z",
        end_at: null,
        note: "resident, Storgatan 1",
      },
    ]);

    const byPlate = await send(
      `${server.url}/api/v1/attendants/check-tickets`,
      "GET",
      json(handheld),
      '{"registration_number":"abc-123"}',
    );
    expect(JSON.parse(byPlate.body)).toEqual(JSON.parse(byZone.body));

    const both = await send(
      `${server.url}/api/v1/attendants/check-tickets`,
      "GET",
      json(handheld),
      '{"zone":"1234","registration_number":"ABC123"}',
    );
    expect(both.status).toBe(400);
    expect(both.headers["content-type"]).toStartWith("application/problem+json");

    // curl -X GET {base_url}/api/v1/tickets/zone/1234 -H 'Accept: application/json'
    //   -H 'Content-Type: application/json' -H 'Authorization: Bearer …'
    const list = await send(`${server.url}/api/v1/tickets/zone/1234`, "GET", json(handheld));
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body)).toEqual({ data: ["ABC 123"] });
    const etag = list.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await send(`${server.url}/api/v1/tickets/zone/1234`, "GET", {
      ...json(handheld),
      "If-None-Match": etag,
    });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");

    const denied = await send(`${server.url}/api/v1/tickets/zone/1234`, "GET", json(terminal));
    expect(denied.status).toBe(403);
    const deniedCheck = await send(
      `${server.url}/api/v1/attendants/check-tickets`,
      "GET",
      json(terminal),
      '{"zone":"1234"}',
    );
    expect(deniedCheck.status).toBe(403);

    const del = await fetch(`${server.url}${location}`, { method: "DELETE", headers: json(admin) });
    expect(del.status).toBe(204);
    const after = await send(`${server.url}/api/v1/tickets/zone/1234`, "GET", {
      ...json(handheld),
      "If-None-Match": etag,
    });
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body)).toEqual({ data: [] });

    expect(await server.stop("SIGTERM")).toBe(0);
    // Lookup records are written at shutdown at the latest; log lines carry no plate.
    const db = new Database(join(box.dataDir, "parkd.db"), { readonly: true });
    const records = db.query("SELECT credential, by, query, results FROM permit_lookups ORDER BY id").all();
    db.close();
    expect(records).toEqual([
      { credential: "token:handheld-1", by: "zone", query: "1234", results: 1 },
      { credential: "token:handheld-1", by: "registration_number", query: "ABC123", results: 1 },
      { credential: "token:handheld-1", by: "zone_list", query: "1234", results: 1 },
      { credential: "token:handheld-1", by: "zone_list", query: "1234", results: 1 },
      { credential: "token:handheld-1", by: "zone_list", query: "1234", results: 0 },
    ]);
    expect(server.stdout()).toContain('"route":"/api/v1/attendants/check-tickets"');
    expect(server.stdout()).not.toContain("ABC");
  });
});

const curl = Bun.which("curl");

describe.skipIf(!curl)("with curl, as the interface's examples are written", () => {
  test("check-tickets with -d on a GET, and the zone list", async () => {
    const reader = await box.token("handheld-curl", "permits:read");
    const server = await box.serve(["--http", "--timezone", "Europe/Stockholm"]);
    const run = (args: string[]) => {
      const p = Bun.spawnSync([curl!, "-s", "-i", ...args]);
      return p.stdout.toString();
    };
    const headers = [
      "-H",
      "Accept: application/json",
      "-H",
      "Content-Type: application/json",
      "-H",
      `Authorization: Bearer ${reader}`,
    ];
    const check = run([
      "-X",
      "GET",
      `${server.url}/api/v1/attendants/check-tickets`,
      ...headers,
      "-d",
      '{"zone":"1234"}',
    ]);
    expect(check).toStartWith("HTTP/1.1 200");
    expect(check.endsWith("[]")).toBe(true);
    const list = run(["-X", "GET", `${server.url}/api/v1/tickets/zone/1234`, ...headers]);
    expect(list).toStartWith("HTTP/1.1 200");
    expect(list).toContain('{"data":[]}');
    expect(await server.stop()).toBe(0);
  });
});
