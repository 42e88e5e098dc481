import { describe, expect, test } from "bun:test";
import { TAGS } from "../../src/modules/operations/contract.ts";
import { openApiPath } from "../../src/modules/operations/openapi.ts";
import { declarationsOf } from "../../src/platform/http/route-declaration.ts";
import { call, testApp } from "../support/app.ts";
import { redoclyLint, spectralLint } from "../support/openapi-lint.ts";

type Json = Record<string, unknown>;

const s = testApp();
const DECLARED = declarationsOf(s.app.routes);
const doc = (await call(s.app, "GET", "/openapi.json")).json as Json;
const paths = doc.paths as Record<string, Record<string, Json>>;
const operations = Object.entries(paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op })),
);

function errorsOf<F extends { severity: string }>(findings: F[]): F[] {
  return findings.filter((f) => f.severity === "error");
}

describe("the OpenAPI document, as the ecosystem's linters read it", () => {
  test("redocly (recommended rules) reports no error", async () => {
    const errors = errorsOf(await redoclyLint(doc));
    expect(errors).toEqual([]);
  }, 30_000);

  test("Spectral (spectral:oas) reports no error", async () => {
    const errors = errorsOf(await spectralLint(doc));
    expect(errors).toEqual([]);
  }, 30_000);

  test("both would catch a leaked validator keyword and a wrong example", async () => {
    const broken = structuredClone(doc) as Json;
    const schemas = (broken.components as Json).schemas as Record<string, Json>;
    (schemas.ParkingLot!.properties as Record<string, Json>).name!.errorMessage = "must be a name";
    const media = (paths["/api/v1/parkings/{id}"]!.get!.responses as Json)["200"] as Json;
    const brokenMedia = ((broken.paths as typeof paths)["/api/v1/parkings/{id}"]!.get!.responses as Json)[
      "200"
    ] as Json;
    brokenMedia.content = structuredClone(media.content);
    ((brokenMedia.content as Json)["application/json"] as Json).example = { data: { id: "twelve" } };
    expect(errorsOf(await redoclyLint(broken)).map((f) => f.rule)).toContain("struct");
    expect(errorsOf(await spectralLint(broken)).map((f) => f.rule)).toContain("oas3-valid-media-example");
  }, 30_000);
});

describe("what the document promises", () => {
  test("every route of the app declares its operation, each id once, in a section the reference orders", () => {
    expect(DECLARED.length).toBeGreaterThan(60);
    for (const d of DECLARED) expect(d.operation, d.key).toBeDefined();
    const ids = DECLARED.map((d) => d.operation?.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(TAGS.map((t) => t.name));
    for (const d of DECLARED) expect(tags.has(d.operation?.tag ?? ""), d.key).toBe(true);
    for (const r of s.app.routes)
      expect(paths[openApiPath(r.path).path]?.[r.method.toLowerCase()]).toBeDefined();
  });

  test("no keyword outside JSON Schema reaches a published schema", () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"errorMessage"');
    expect(text).not.toContain('"Kind"');
  });

  test("every request and response body has an example, every error its problem types", () => {
    for (const { path, method, op } of operations) {
      const bodies: [string, Json][] = [];
      const requestBody = op.requestBody as Json | undefined;
      for (const [type, m] of Object.entries((requestBody?.content ?? {}) as Record<string, Json>))
        bodies.push([`${method} ${path} request ${type}`, m]);
      for (const [status, r] of Object.entries(op.responses as Record<string, Json>)) {
        for (const [type, m] of Object.entries((r.content ?? {}) as Record<string, Json>)) {
          if (!type.includes("json")) continue;
          bodies.push([`${method} ${path} ${status} ${type}`, m]);
          if (Number(status) >= 400) expect(type).toBe("application/problem+json");
        }
        if (Number(status) >= 400) expect(r.content, `${method} ${path} ${status}`).toBeDefined();
      }
      for (const [where, m] of bodies)
        expect(m.example !== undefined || m.examples !== undefined, where).toBe(true);
    }
  });

  test("the intake declares every status it answers, with the problem types", () => {
    const intake = paths["/api/v1/actions/tickets"]!.post!;
    const responses = intake.responses as Record<string, Json>;
    const typesOf = (status: string) =>
      Object.values(
        ((responses[status]!.content as Json)["application/problem+json"] as Json).examples as Record<
          string,
          Json
        >,
      ).map((e) => (e.value as Json).type);
    expect(Object.keys(responses)).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "409",
      "413",
      "415",
      "429",
      "500",
      "503",
    ]);
    expect(typesOf("400")).toEqual([
      "/problems/validation",
      "/problems/malformed-json",
      "/problems/invalid-encoding",
    ]);
    expect(typesOf("404")).toEqual(["/problems/ticket-not-found"]);
    expect(typesOf("409")).toEqual([
      "/problems/ticket-exists",
      "/problems/plate-mismatch",
      "/problems/ticket-canceled",
      "/problems/ticket-event-limit",
    ]);
    const body = (intake.requestBody as Json).content as Record<string, Json>;
    expect(body["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/TicketEvent" });
    expect(Object.keys(body["application/json"]!.examples as Json)).toHaveLength(6);
  });

  test("resources are named components; lots answer typed bodies and 304", () => {
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    for (const name of [
      "ParkingLot",
      "ParkingLotFee",
      "VariableFee",
      "ParkingLotOpen",
      "ParkingLotLocation",
      "Quote",
      "Permit",
      "ExtendedInformation",
      "TicketCreated",
      "TicketMoved",
      "TicketEvent",
      "Ticket",
      "Problem",
    ])
      expect(schemas[name], name).toBeDefined();
    const lot = schemas.ParkingLot!.properties as Record<string, Json>;
    expect(lot.parking_lot_fee).toEqual({
      type: "array",
      items: { $ref: "#/components/schemas/ParkingLotFee" },
    });
    const list = paths["/api/v1/parkings"]!.get!.responses as Record<string, Json>;
    expect((list["200"]!.content as Record<string, Json>)["application/json"]!.schema).toEqual({
      $ref: "#/components/schemas/ParkingLotList",
    });
    expect(list["304"]).toBeDefined();
    expect((list["200"]!.headers as Json).ETag).toBeDefined();
  });

  test("check-tickets: the query form leads, the body form is a oneOf of the two parameters", () => {
    const op = paths["/api/v1/attendants/check-tickets"]!.get!;
    expect(op.operationId).toBe("checkTickets");
    expect((op.parameters as Json[]).map((p) => `${p.in}:${p.name}`)).toEqual([
      "query:registration_number",
      "query:zone",
    ]);
    expect(op.requestBody).toBeUndefined();
    const body = ((doc.components as Json).schemas as Record<string, Json>).CheckTicketsBody!;
    expect((body.oneOf as Json[]).length).toBe(2);
  });

  test("every operation has its own operationId and every parameter an example", () => {
    const ids = operations.map(({ op }) => op.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
    expect(paths["/api/v1/actions/tickets"]!.post!.operationId).toBe("postTicketEvent");
    for (const { path, method, op } of operations)
      for (const p of (op.parameters as Json[] | undefined) ?? [])
        expect(p.example, `${method} ${path} ${p.name}`).toBeDefined();
  });

  test("the intake's discriminator maps each eventType to its body", () => {
    const event = ((doc.components as Json).schemas as Record<string, Json>).TicketEvent!;
    expect((event.discriminator as Json).mapping).toEqual({
      TicketCreated: "#/components/schemas/TicketCreated",
      TicketUpdated: "#/components/schemas/TicketUpdated",
      TicketStopped: "#/components/schemas/TicketStopped",
      TicketMoved: "#/components/schemas/TicketMoved",
      TicketCanceled: "#/components/schemas/TicketCanceled",
      CreateOrUpdate: "#/components/schemas/CreateOrUpdate",
    });
  });
});

describe("the document says what the box enforces, and its examples form one site", () => {
  const param = (path: string, method: string, name: string) =>
    ((paths[path]![method]!.parameters as Json[]).find((p) => p.name === name)!.schema ?? {}) as Json;

  test("a notice's number is an integer from 1 to 2^31-1; a photo's hash 64 hex digits", () => {
    for (const [path, method] of [
      ["/api/v1/notices/{number}", "get"],
      ["/api/v1/notices/{number}/void", "post"],
      ["/api/v1/notices/{number}/photos/{hash}", "get"],
    ] as const)
      expect(param(path, method, "number")).toMatchObject({
        type: "integer",
        minimum: 1,
        maximum: 2_147_483_647,
      });
    expect(param("/api/v1/notices/{number}/photos/{hash}", "get", "hash").pattern).toBe("^[0-9a-f]{64}$");
  });

  test("occupancy's step is a multiple of 5; from and to name their form", () => {
    expect(param("/api/v1/occupancy/history", "get", "step")).toMatchObject({
      type: "integer",
      minimum: 5,
      maximum: 1440,
      multipleOf: 5,
    });
    const from = new RegExp(param("/api/v1/occupancy/history", "get", "from").pattern as string);
    expect(from.test("2026-06-15")).toBe(true);
    expect(from.test("2026-06-15T10:00:00+02:00")).toBe(true);
    expect(from.test("15 June")).toBe(false);
  });

  test("date-times are in their ranges: no day 88, no hour 24, no minute 60, no offset +25", async () => {
    const { INSTANT_PATTERN } = await import("../../src/domain/time/zoned.ts");
    const instant = new RegExp(INSTANT_PATTERN);
    for (const ok of ["2026-06-15T10:00:00Z", "2026-12-31T23:59:59.999+14:00", "2026-01-01 00:00"])
      expect(instant.test(ok), ok).toBe(true);
    for (const bad of [
      "2026-06-88T10:00:00Z",
      "2026-13-01T10:00:00Z",
      "2026-06-15T24:00:00Z",
      "2026-06-15T10:60:00Z",
      "2026-06-15T10:00:61Z",
      "2026-06-15T10:00:00+25:00",
    ])
      expect(instant.test(bad), bad).toBe(false);
  });

  test("a lot and a reason made from the examples, the reason changed by the PATCH example, take a notice made from the notice example", async () => {
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    const bodyExample = (path: string, method: string) => {
      const content = (paths[path]![method]!.requestBody as Json).content as Record<
        string,
        { example?: unknown; schema: { $ref?: string } }
      >;
      const json = content["application/json"]!;
      return json.example ?? schemas[json.schema.$ref!.split("/").at(-1)!]!.example;
    };
    const pathExample = (path: string, method: string, name: string) =>
      (paths[path]![method]!.parameters as Json[]).find((p) => p.name === name)!.example as string;
    const site = testApp();
    const admin = site.token("admin");
    const handheld = site.token("permits:read", "notices:write");
    // The site's lot, from the lot example (the first lot made: id 1, as the examples name it).
    const lot = await call(site.app, "POST", "/api/v1/parkings", {
      token: admin,
      body: bodyExample("/api/v1/parkings", "post"),
    });
    expect(lot.status, lot.text).toBe(201);
    const made = await call(site.app, "POST", "/api/v1/notice-reasons", {
      token: admin,
      body: bodyExample("/api/v1/notice-reasons", "post"),
    });
    expect(made.status, made.text).toBe(201);
    const code = pathExample("/api/v1/notice-reasons/{code}", "patch", "code");
    const patch = await call(site.app, "PATCH", `/api/v1/notice-reasons/${code}`, {
      token: admin,
      body: bodyExample("/api/v1/notice-reasons/{code}", "patch"),
    });
    expect(patch.status, patch.text).toBe(200);
    const issued = await call(site.app, "POST", "/api/v1/attendants/notices", {
      token: handheld,
      body: bodyExample("/api/v1/attendants/notices", "post"),
    });
    expect(issued.status, issued.text).toBe(201);
  });
});
