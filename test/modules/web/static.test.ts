import { describe, expect, test } from "bun:test";
import { CONTENT_SECURITY_POLICY } from "../../../src/modules/web/static-routes.ts";
import { call, testApp } from "../../support/app.ts";

/** Addresses tesseract.js's bundled code names (one ending in `$`: its start), none fetched by the page. */
const TESSERACT_PACKAGE_URLS = [
  "http://localhost:3000/dist/tesseract.min.js",
  "https://github.com/naptha/tesseract.js.git",
  "https://github.com/naptha/tesseract.js/issues",
  "https://github.com/naptha/tesseract.js",
  "https://opencollective.com/tesseractjs",
  // Its version is a minified variable's name, which changes from build to build.
  "https://cdn.jsdelivr.net/npm/tesseract.js@v$",
];

describe("the web app's files", () => {
  const s = testApp();

  test("/ is a shell with no inline script or style, under a strict policy", async () => {
    const res = await call(s.app, "GET", "/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain("unsafe");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    for (const tag of res.text.match(/<script[^>]*>/g) ?? []) expect(tag).toMatch(/ src="\/app\.js\?v=\w+"/);
    expect(res.text).not.toMatch(/<style|\sstyle=|\son\w+=/);
    expect(res.text).not.toMatch(/(?:href|src)="(?!\/)/);
  });

  test("every file comes from the box; nothing names another origin to load from", async () => {
    for (const [path, type] of [
      ["/app.js", "text/javascript"],
      ["/app.css", "text/css"],
      ["/sw.js", "text/javascript"],
      ["/manifest.webmanifest", "application/manifest+json"],
      ["/icon.svg", "image/svg+xml"],
    ] as const) {
      const res = await call(s.app, "GET", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith(type);
      expect(res.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
      // The only absolute URLs are XML namespaces, which nothing fetches, and what tesseract.js
      // carries of its package: its metadata and its default worker address, which the page never
      // uses (plate-reader/index.ts gives every path, the box's) and which the page's own policy
      // (script-src and connect-src 'self') would refuse anyway.
      const urls = (res.text.match(/https?:\/\/[^\s"'`)]+/g) ?? []).filter(
        (u) =>
          !u.startsWith("http://www.w3.org/") &&
          !(
            path === "/app.js" &&
            TESSERACT_PACKAGE_URLS.some(
              (known) => u === known || (known.endsWith("$") && u.startsWith(known)),
            )
          ),
      );
      expect(urls, path).toEqual([]);
    }
    const manifest = (await call(s.app, "GET", "/manifest.webmanifest")).json;
    expect(manifest).toMatchObject({ start_url: "/", scope: "/", display: "standalone" });
    expect((await call(s.app, "GET", "/sw.js")).text).toContain("parkd-zones");
  });

  test("revalidated by ETag: 304 when unchanged", async () => {
    const first = await call(s.app, "GET", "/app.js");
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const again = await call(s.app, "GET", "/app.js", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });

  test("the OpenAPI document has the new routes", async () => {
    const doc = (await call(s.app, "GET", "/openapi.json")).json;
    const paths = doc.paths as Record<string, Record<string, { "x-scope"?: string }>>;
    for (const [path, method] of [
      ["/api/v1/session", "post"],
      ["/api/v1/session", "get"],
      ["/api/v1/session", "delete"],
      ["/api/v1/tokens", "get"],
      ["/api/v1/tokens", "post"],
      ["/api/v1/tokens/{id}", "delete"],
      ["/api/v1/users", "post"],
      ["/api/v1/users/{id}", "delete"],
      ["/api/v1/tickets", "get"],
      ["/api/v1/lookups", "get"],
      ["/api/v1/status", "get"],
      ["/api/v1/tickets/zone/{zone}/events", "get"],
      ["/", "get"],
    ] as const)
      expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    expect(paths["/api/v1/tickets"]!.get!["x-scope"]).toBe("admin");
    expect(paths["/api/v1/tickets/zone/{zone}/events"]!.get!["x-scope"]).toBe("permits:read");
    expect(paths["/app.js"]?.get).toBeDefined();
  });
});
