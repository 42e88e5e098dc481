import { describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Elysia, t } from "elysia";
import { createApp } from "../../../src/app.ts";
import { openApiPath } from "../../../src/modules/operations/openapi.ts";
import { authPlugin } from "../../../src/platform/http/auth.ts";
import { VERSION } from "../../../src/version.ts";
import { call, expectProblem, testApp } from "../../support/app.ts";

/** Routes shaped like the features that are merged later, added after createApp as a feature would. */
function withFeatureRoutes(setup: ReturnType<typeof testApp>) {
  const feature = new Elysia()
    .use(authPlugin(setup.auth))
    .post("/api/v1/probe/events", () => [], {
      auth: { scope: "tickets:write", basic: true },
      body: t.Object({ eventType: t.String(), zoneCode: t.Integer() }),
      detail: {
        summary: "Probe intake",
        tags: ["tickets"],
        requestBody: {
          content: {
            "application/json": {
              schema: {
                oneOf: [
                  { type: "object", title: "A" },
                  { type: "object", title: "B" },
                ],
              },
            },
          },
        },
      },
    })
    .get("/api/v1/probe/zone/:zone", ({ params }) => ({ data: [String(params.zone)] }), {
      auth: { scope: "permits:read" },
      params: t.Object({ zone: t.Integer() }),
      query: t.Object({ since: t.Optional(t.String()) }),
      response: { 200: t.Object({ data: t.Array(t.String()) }), 404: t.Any() },
      detail: { summary: "Probe zone list", tags: ["permits"] },
    });
  // Admin CRUD written with a guard and a group, as the permit and lot features may be.
  const admin = new Elysia()
    .use(authPlugin(setup.auth))
    .group("/api/v1/probe/permits", (g) =>
      g.guard({ auth: { scope: "admin" }, body: t.Object({ plate: t.String(), zone: t.Integer() }) }, (a) =>
        a
          .post("", () => ({ id: 1 }), { detail: { summary: "Create probe permit", tags: ["permits"] } })
          .put("/:id", () => ({ id: 1 }), { params: t.Object({ id: t.Integer() }) }),
      ),
    );
  return createApp(setup.ctx).use(feature).use(admin);
}

describe("GET /openapi.json", () => {
  const s = testApp();
  const app = withFeatureRoutes(s);

  test("is a valid OpenAPI 3.1 document that names every route of the app", async () => {
    const res = await call(app, "GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const doc = res.json;
    const validator = new Validator();
    const result = await validator.validate(doc);
    if (!result.valid) throw new Error(JSON.stringify(result.errors, null, 2));
    expect(validator.version).toBe("3.1");
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(VERSION);
    for (const route of app.routes) {
      const { path } = openApiPath(route.path);
      expect(doc.paths[path]?.[route.method.toLowerCase()]).toBeDefined();
    }
    expect(Object.keys(doc.paths)).toContain("/api/v1/probe/zone/{zone}");
    // The validator does reject a broken document (so the check above can fail).
    const broken = structuredClone(doc);
    broken.paths["/healthz"].get.responses = { "200": { content: {} } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  test("auth schemes and scope come from the auth macro", async () => {
    const doc = (await call(app, "GET", "/openapi.json")).json;
    expect(doc.components.securitySchemes.bearer).toEqual(
      expect.objectContaining({ type: "http", scheme: "bearer" }),
    );
    expect(doc.components.securitySchemes.basic).toEqual(
      expect.objectContaining({ type: "http", scheme: "basic" }),
    );
    const intake = doc.paths["/api/v1/probe/events"].post;
    expect(intake.security).toEqual([{ bearer: [] }, { basic: [] }]);
    expect(intake["x-scope"]).toBe("tickets:write");
    expect(intake.description).toContain("tickets:write");
    const zone = doc.paths["/api/v1/probe/zone/{zone}"].get;
    expect(zone.security).toEqual([{ bearer: [] }]);
    expect(zone["x-scope"]).toBe("permits:read");
    expect(doc.paths["/healthz"].get.security).toEqual([]);
    expect(doc.paths["/api/v1/whoami"].get.security).toEqual([{ bearer: [] }, { basic: [] }]);
    expect(doc.paths["/metrics"].get.security).toEqual([{ bearer: [] }]);
  });

  test("schemas and auth set by a guard reach the routes inside it", async () => {
    const doc = (await call(app, "GET", "/openapi.json")).json;
    const create = doc.paths["/api/v1/probe/permits"].post;
    expect(create.summary).toBe("Create probe permit");
    expect(create.security).toEqual([{ bearer: [] }]);
    expect(create["x-scope"]).toBe("admin");
    expect(create.requestBody.content["application/json"].schema.required).toEqual(["plate", "zone"]);
    const update = doc.paths["/api/v1/probe/permits/{id}"].put;
    expect(update.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "integer" }, example: 1 },
    ]);
    expect(update.requestBody.content["application/json"].schema.properties.zone.type).toBe("integer");
    expect(update.responses["403"]).toBeDefined();
  });

  test("request schemas, parameters, responses and the problem shape", async () => {
    const doc = (await call(app, "GET", "/openapi.json")).json;
    const zone = doc.paths["/api/v1/probe/zone/{zone}"].get;
    expect(zone.parameters).toEqual([
      { name: "zone", in: "path", required: true, schema: { type: "integer" }, example: 1234 },
      { name: "since", in: "query", required: false, schema: { type: "string" } },
    ]);
    expect(zone.responses["200"].content["application/json"].schema.properties.data.type).toBe("array");
    const problemRef = { $ref: "#/components/schemas/Problem" };
    for (const status of ["400", "401", "403", "404", "429", "500", "503"]) {
      const schema = zone.responses[status].content["application/problem+json"].schema;
      expect(schema.allOf?.[0] ?? schema).toEqual(problemRef);
    }
    // Known problem types are named with the status that carries them, and shown by example.
    const unauthorized = zone.responses["401"].content["application/problem+json"];
    expect(unauthorized.schema.allOf[1].properties.type.enum).toEqual(["/problems/unauthorized"]);
    expect(unauthorized.examples.unauthorized.value.status).toBe(401);
    const problem = doc.components.schemas.Problem;
    expect(problem.required).toEqual(["type", "title", "status", "detail"]);
    expect(Object.keys(problem.properties)).toEqual([
      "type",
      "title",
      "status",
      "detail",
      "instance",
      "errors",
    ]);
    // The route's own OpenAPI hint (a oneOf body) wins over the schema that validates it.
    const intake = doc.paths["/api/v1/probe/events"].post;
    expect(intake.requestBody.content["application/json"].schema.oneOf).toHaveLength(2);
    expect(intake.responses["413"]).toBeDefined();
    expect(intake.responses["415"]).toBeDefined();
    expect(intake.summary).toBe("Probe intake");
    expect(intake.tags).toEqual(["tickets"]);
  });

  test("real error answers match the published problem shape", async () => {
    const doc = (await call(app, "GET", "/openapi.json")).json;
    const keys = new Set(Object.keys(doc.components.schemas.Problem.properties));
    const res = await call(app, "GET", "/api/v1/probe/zone/abc", { token: s.token("permits:read") });
    const p = expectProblem(res, 400, "validation");
    for (const k of Object.keys(p)) expect(keys.has(k)).toBe(true);
  });
});

describe("GET /docs", () => {
  const s = testApp();
  const app = withFeatureRoutes(s);

  test("no page elsewhere may frame it, nor the web app or the kiosk board", async () => {
    for (const path of ["/docs", "/", "/board"]) {
      const res = await call(app, "GET", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("text/html");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
    }
  });

  test("is HTML that lists every operation and loads nothing from elsewhere", async () => {
    const res = await call(app, "GET", "/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = res.text;
    expect(html).toContain("/api/v1/probe/zone/{zone}");
    expect(html).toContain("/api/v1/whoami");
    expect(html).toContain("Probe intake");
    // Every URL the page could load or follow must stay on this box.
    const urls = [...html.matchAll(/\b(?:src|href|action|srcset|poster|data)\s*=\s*["']?([^"'\s>]+)/gi)].map(
      (m) => m[1]!,
    );
    expect(urls.length).toBeGreaterThan(5);
    for (const u of urls) expect(u).not.toMatch(/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i);
    expect(html).not.toMatch(/url\(\s*["']?(?:[a-z]+:|\/\/)/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/<script[^>]*\bsrc=/i);
    // No address elsewhere in the text either, examples (inert <pre> text, e.g. a sign-in URL
    // for a handheld) aside.
    expect(html.replace(/<pre>[\s\S]*?<\/pre>/g, "")).not.toMatch(/https?:\/\//i);
  });
});

const sample = (text: string, name: string) => {
  const line = text.split("\n").find((l) => l.startsWith(name));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
};

describe("GET /metrics", () => {
  test("needs an admin credential or the metrics token", async () => {
    const s = testApp({ metricsToken: "scrape-token-0123456789" });
    expectProblem(await call(s.app, "GET", "/metrics"), 401, "unauthorized");
    expectProblem(
      await call(s.app, "GET", "/metrics", { token: s.token("permits:read") }),
      403,
      "insufficient-scope",
    );
    expectProblem(
      await call(s.app, "GET", "/metrics", { token: "scrape-token-012345678X" }),
      401,
      "unauthorized",
    );
    const byToken = await call(s.app, "GET", "/metrics", { token: "scrape-token-0123456789" });
    expect(byToken.status).toBe(200);
    expect(byToken.headers.get("content-type")).toStartWith("text/plain; version=0.0.4");
    expect((await call(s.app, "GET", "/metrics", { token: s.token("admin") })).status).toBe(200);
  });

  test("without a metrics token only admin reads it", async () => {
    const s = testApp();
    expectProblem(
      await call(s.app, "GET", "/metrics", { token: "anything-at-all-here" }),
      401,
      "unauthorized",
    );
  });

  test("counts requests by route template and status, with a latency histogram", async () => {
    const s = testApp();
    const app = withFeatureRoutes(s);
    const admin = s.token("admin");
    const reader = s.token("permits:read");
    const before = (await call(app, "GET", "/metrics", { token: admin })).text;
    const name = 'parkd_http_requests_total{method="GET",route="/api/v1/probe/zone/:zone",status="200"}';
    expect(sample(before, name)).toBeUndefined();
    for (const z of [1, 2, 3])
      expect((await call(app, "GET", `/api/v1/probe/zone/${z}`, { token: reader })).status).toBe(200);
    await call(app, "GET", "/api/v1/probe/zone/x", { token: reader });
    await call(app, "GET", "/api/v1/probe/zone/1");
    await call(app, "POST", "/api/v1/probe/events", {
      token: s.token("tickets:write"),
      body: '{"eventType":',
    });
    await call(app, "GET", "/no/such/thing");
    const after = (await call(app, "GET", "/metrics", { token: admin })).text;
    expect(sample(after, name)).toBe(3);
    expect(
      sample(after, 'parkd_http_requests_total{method="GET",route="/api/v1/probe/zone/:zone",status="400"}'),
    ).toBe(1);
    expect(
      sample(after, 'parkd_http_requests_total{method="GET",route="/api/v1/probe/zone/:zone",status="401"}'),
    ).toBe(1);
    expect(
      sample(after, 'parkd_http_requests_total{method="POST",route="/api/v1/probe/events",status="400"}'),
    ).toBe(1);
    expect(sample(after, 'parkd_http_requests_total{method="GET",route="(unmatched)",status="404"}')).toBe(1);
    expect(sample(after, 'parkd_http_requests_total{method="GET",route="/metrics",status="200"}')).toBe(1);
    expect(sample(after, 'parkd_http_request_duration_seconds_count{route="/api/v1/probe/zone/:zone"}')).toBe(
      5,
    );
    expect(
      sample(after, 'parkd_http_request_duration_seconds_bucket{route="/api/v1/probe/zone/:zone",le="+Inf"}'),
    ).toBe(5);
    expect(after).toContain("# TYPE parkd_http_request_duration_seconds histogram");
    expect(after).toContain("process_resident_memory_bytes ");
    expect(after).toMatch(/parkd_build_info\{version="[^"]+",commit="[^"]+",schema="\d+"\} 1/);
  });

  test("features count events and lookups through ctx.metrics", async () => {
    const s = testApp();
    s.ctx.metrics.ticketEvent("TicketCreated");
    s.ctx.metrics.ticketEvent("TicketCreated");
    s.ctx.metrics.ticketEvent("TicketMoved");
    s.ctx.metrics.permitLookup("zone");
    const text = (await call(s.app, "GET", "/metrics", { token: s.token("admin") })).text;
    expect(sample(text, 'parkd_ticket_events_total{type="TicketCreated"}')).toBe(2);
    expect(sample(text, 'parkd_ticket_events_total{type="TicketMoved"}')).toBe(1);
    expect(sample(text, 'parkd_permit_lookups_total{by="zone"}')).toBe(1);
  });
});

describe("feature counters", () => {
  test("accepted ticket events by type and permit lookups by kind reach /metrics", async () => {
    const s = testApp();
    const admin = s.token("admin");
    const writer = s.token("tickets:write");
    const reader = s.token("permits:read");
    const created = {
      eventType: "TicketCreated",
      ticketId: "M-1",
      zoneCode: "1234",
      parkingLotId: null,
      startDate: "2026-06-15T10:00:00+02:00",
      endDate: null,
      licenseNumber: "ABC123",
      ticketCost: { amountInclVat: null, vatRate: null, currencyCode: null },
    };
    expect(
      (await call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body: created })).status,
    ).toBe(200);
    expect(
      (await call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body: created })).status,
    ).toBe(200);
    const cancel = { eventType: "TicketCanceled", ticketId: "M-1" };
    expect(
      (await call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body: cancel })).status,
    ).toBe(200);
    // Refused events are not counted.
    const unknown = { eventType: "TicketCanceled", ticketId: "nope" };
    expect(
      (await call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body: unknown })).status,
    ).toBe(404);
    await call(s.app, "GET", "/api/v1/attendants/check-tickets?registration_number=ABC123", {
      token: reader,
    });
    await call(s.app, "GET", "/api/v1/attendants/check-tickets?zone=1234", { token: reader });
    await call(s.app, "GET", "/api/v1/tickets/zone/1234", { token: reader });
    const text = (await call(s.app, "GET", "/metrics", { token: admin })).text;
    expect(sample(text, 'parkd_ticket_events_total{type="TicketCreated"}')).toBe(2);
    expect(sample(text, 'parkd_ticket_events_total{type="TicketCanceled"}')).toBe(1);
    expect(sample(text, 'parkd_permit_lookups_total{by="registration_number"}')).toBe(1);
    expect(sample(text, 'parkd_permit_lookups_total{by="zone"}')).toBe(1);
    expect(sample(text, 'parkd_permit_lookups_total{by="zone_list"}')).toBe(1);
  });
});
