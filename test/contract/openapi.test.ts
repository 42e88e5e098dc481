import { describe, expect, test } from "bun:test";
import { operationsContract, TAGS } from "../../src/modules/operations/contract.ts";
import { openApiPath } from "../../src/modules/operations/openapi.ts";
import { mergeContracts } from "../../src/platform/http/api-contract.ts";
import { call, testApp } from "../support/app.ts";
import { redoclyLint, spectralLint } from "../support/openapi-lint.ts";

type Json = Record<string, unknown>;

const s = testApp();
const OPERATIONS = mergeContracts(operationsContract, ...s.contracts).operations;
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
  test("every route of the app has a contract entry, and every entry names a route", () => {
    const routes = new Set(s.app.routes.map((r) => `${r.method.toUpperCase()} ${r.path}`));
    for (const key of routes) expect(OPERATIONS[key], key).toBeDefined();
    for (const key of Object.keys(OPERATIONS)) expect(routes.has(key), key).toBe(true);
    // Every section named is one the reference orders.
    const tags = new Set(TAGS.map((t) => t.name));
    for (const [key, op] of Object.entries(OPERATIONS)) expect(tags.has(op.tag), key).toBe(true);
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
