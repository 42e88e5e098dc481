import { describe, expect, test } from "bun:test";
import { PLATE_READER_FILES } from "../../../src/client/plate-reader/files.ts";
import { PLATE_READER_BASE } from "../../../src/modules/web/plate-reader-base.ts";
import { PLATE_READER_PATHS } from "../../../src/modules/web/plate-reader-files.ts";
import { call, expectProblem, request, testApp } from "../../support/app.ts";

/** The handheld's plate reader, served by the box alone (src/modules/web/plate-reader-routes.ts). */
describe("the plate reader's files", () => {
  const s = testApp();

  test("the binary carries exactly the files the reader asks for", () => {
    expect(Object.keys(PLATE_READER_PATHS).sort()).toEqual(PLATE_READER_FILES.map((f) => f.name).sort());
  });

  test("the app's page names where they are; each is served under the build's tag, kept a year", async () => {
    const page = await call(s.app, "GET", "/");
    expect(page.text).toContain(`<meta name="plate-reader" content="${PLATE_READER_BASE}">`);
    for (const f of PLATE_READER_FILES) {
      const res = await s.app.handle(request("GET", `${PLATE_READER_BASE}${f.name}`));
      expect(res.status, f.name).toBe(200);
      expect(res.headers.get("content-type"), f.name).toBe(f.type);
      expect(res.headers.get("cache-control"), f.name).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("x-content-type-options"), f.name).toBe("nosniff");
      const bytes = new Uint8Array(await Bun.file(PLATE_READER_PATHS[f.name]!).arrayBuffer());
      expect(new Uint8Array(await res.arrayBuffer()), f.name).toEqual(bytes);
    }
  });

  test("the worker may compile WebAssembly, and still loads and fetches from the box alone", async () => {
    const res = await call(s.app, "GET", `${PLATE_READER_BASE}worker.min.js`);
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'",
    );
    const wasm = PLATE_READER_FILES.find((f) => f.name.endsWith(".wasm"))!;
    expect((await call(s.app, "GET", `${PLATE_READER_BASE}${wasm.name}`)).headers.get("content-type")).toBe(
      "application/wasm",
    );
  });

  test("revalidated by its ETag: 304 when unchanged", async () => {
    const first = await s.app.handle(request("GET", `${PLATE_READER_BASE}worker.min.js`));
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-z]+"$/);
    const again = await call(s.app, "GET", `${PLATE_READER_BASE}worker.min.js`, {
      headers: { "if-none-match": etag },
    });
    expect(again.status).toBe(304);
  });

  test("another build's tag, or a file the reader does not have, is 404", async () => {
    expectProblem(await call(s.app, "GET", "/plate-reader/older-build/worker.min.js"), 404, "not-found");
    expectProblem(await call(s.app, "GET", `${PLATE_READER_BASE}passwd`), 404, "not-found");
    expectProblem(await call(s.app, "GET", `${PLATE_READER_BASE}..%2F..%2Fpackage.json`), 404, "not-found");
  });
});
