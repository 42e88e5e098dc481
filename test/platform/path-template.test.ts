import { describe, expect, test } from "bun:test";
import { PathTable, templatePattern } from "../../src/platform/http/path-template.ts";
import { rawBodies } from "../../src/platform/http/request-body.ts";

describe("a route template as the paths it matches (the front end's one reading of the router's templates)", () => {
  test.each([
    ["/api/v1/parkings/:id", "/api/v1/parkings/7", true],
    ["/api/v1/parkings/:id", "/api/v1/parkings/7/", true],
    ["/api/v1/parkings/:id", "/api/v1/parkings/", false],
    ["/api/v1/parkings/:id", "/api/v1/parkings/7/quote", false],
    ["/api/v1/parkings", "/api/v1/parkingsX", false],
    ["/assets/*", "/assets/app.js", true],
    ["/assets/*", "/assets/a/b/c.css", true],
    ["/metrics.json", "/metricsXjson", false],
    ["/api/v1/attendants/notices/:id/photos", "/api/v1/attendants/notices/abc-123/photos", true],
    ["/api/v1/attendants/notices/:id/photos", "/api/v1/attendants/notices/a/b/photos", false],
  ] as const)("%s takes %s: %p", (template, path, matches) => {
    expect(templatePattern(template).test(path)).toBe(matches);
  });

  test("without a trailing slash when asked (a raw body's limit is for the route's own paths)", () => {
    const exact = templatePattern("/api/v1/attendants/notices/:id/photos", { trailingSlash: false });
    expect(exact.test("/api/v1/attendants/notices/n1/photos")).toBe(true);
    expect(exact.test("/api/v1/attendants/notices/n1/photos/")).toBe(false);
  });
});

describe("the path table every question before routing asks (direct answers, raw bodies, rate-limit marks, 405)", () => {
  const table = new PathTable([
    { method: "GET", template: "/healthz", value: "health" },
    { method: "GET", template: "/api/v1/tickets/zone/:zone", value: "zone list" },
    { method: "GET", template: "/api/v1/tickets/zone/:zone/permits", value: "saved list" },
    { method: "POST", template: "/api/v1/attendants/notices/:id/photos", value: "photo" },
    { method: "GET", template: "/assets/*", value: "asset" },
  ]);

  test.each([
    ["GET", "/healthz", "health", {}],
    ["GET", "/healthz/", "health", {}],
    ["GET", "/api/v1/tickets/zone/1234", "zone list", { zone: "1234" }],
    ["GET", "/api/v1/tickets/zone/1234/", "zone list", { zone: "1234" }],
    ["GET", "/api/v1/tickets/zone/1234/permits", "saved list", { zone: "1234" }],
    ["POST", "/api/v1/attendants/notices/n-1/photos", "photo", { id: "n-1" }],
    ["GET", "/assets/a/b.css", "asset", {}],
  ] as const)("%s %s is %s", (method, path, value, params) => {
    const found = table.find(method, path);
    expect(found?.value).toBe(value);
    expect({ ...found?.params }).toEqual(params);
  });

  test.each([
    ["POST", "/healthz"],
    ["GET", "/healthzz"],
    ["GET", "/api/v1/tickets/zone/"],
    ["GET", "/api/v1/tickets/zone/1/2"],
    ["GET", "/api/v1/attendants/notices/n-1/photos"],
    ["POST", "/api/v1/attendants/notices/a/b/photos"],
  ] as const)("%s %s is nobody's", (method, path) => {
    expect(table.find(method, path)).toBeUndefined();
  });

  test("one trailing slash is the route's, as the router takes it; two are not, and // is not /", () => {
    const root = new PathTable([
      { method: "GET", template: "/", value: "page" },
      { method: "GET", template: "/healthz", value: "health" },
    ]);
    expect(root.find("GET", "/")?.value).toBe("page");
    expect(root.find("GET", "//")).toBeUndefined();
    expect(root.find("GET", "/healthz//")).toBeUndefined();
  });

  test("without a trailing slash when asked, and a template twice is a mistake", () => {
    const exact = new PathTable([{ method: "GET", template: "/healthz", value: 1 }], {
      trailingSlash: false,
    });
    expect(exact.find("GET", "/healthz")?.value).toBe(1);
    expect(exact.find("GET", "/healthz/")).toBeUndefined();
    expect(
      () =>
        new PathTable([
          { method: "GET", template: "/x", value: 1 },
          { method: "GET", template: "/x", value: 2 },
        ]),
    ).toThrow("GET /x is in the table twice");
  });
});

describe("a raw body's limit before routing", () => {
  const raw = rawBodies(
    () => [{ method: "POST", route: "/api/v1/attendants/notices/:id/photos", limit: 5_000_000 }],
    65_536,
  );

  test("is the route's for the paths the router gives it, a trailing slash too; the JSON limit elsewhere", () => {
    expect(raw.limitOf("POST", "/api/v1/attendants/notices/n1/photos")).toBe(5_000_000);
    expect(raw.limitOf("POST", "/api/v1/attendants/notices/n1/photos/")).toBe(5_000_000);
    expect(raw.limitOf("PUT", "/api/v1/attendants/notices/n1/photos")).toBe(65_536);
    expect(raw.limitOf("POST", "/api/v1/attendants/notices/n1")).toBe(65_536);
    expect(raw.routeLimit("POST", "/api/v1/attendants/notices/:id/photos")).toBe(5_000_000);
    expect(raw.routeLimit("POST", "/api/v1/attendants/notices")).toBeUndefined();
  });
});
