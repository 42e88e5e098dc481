import { describe, expect, test } from "bun:test";
import { templatePattern } from "../../src/platform/http/path-template.ts";

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
