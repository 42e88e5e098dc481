import { describe, expect, test } from "bun:test";
import { Elysia, t } from "elysia";
import { buildOpenApi } from "../../../src/modules/operations/openapi.ts";

/**
 * The OpenAPI document is built by our own generator from `app.routes`, not by
 * @elysiajs/openapi: the document carries our problem catalog, scopes, examples and 429/503
 * responses from the modules' contracts, and is checked against the routes' answers by the
 * contract tests. It reads two things Elysia does not promise: each route's `hooks` (its own
 * schemas and `detail`) and `hooks.standaloneValidator` (the schemas of enclosing guards, kept
 * apart since Elysia 1.4). This test fails when either changes shape with an Elysia upgrade.
 */
describe("the Elysia internals the OpenAPI generator reads", () => {
  const app = new Elysia()
    .guard({ query: t.Object({ guarded: t.String() }) }, (g) =>
      g.post("/things/:id", () => ({ ok: true }), {
        params: t.Object({ id: t.String() }),
        query: t.Object({ own: t.Optional(t.String()) }),
        body: t.Object({ name: t.String() }),
        response: { 200: t.Object({ ok: t.Boolean() }) },
        detail: { summary: "Make a thing" },
      }),
    )
    .get("/plain", () => "x", { detail: { summary: "Plain" } });

  test("a route's hooks hold its own schemas and detail; a guard's are in standaloneValidator", () => {
    const route = app.routes.find((r) => r.path === "/things/:id")!;
    const hooks = route.hooks as Record<string, unknown>;
    for (const slot of ["params", "query", "body", "response", "detail"]) expect(hooks[slot]).toBeDefined();
    expect((hooks.detail as { summary: string }).summary).toBe("Make a thing");
    expect(Array.isArray(hooks.standaloneValidator)).toBe(true);
    const guard = (hooks.standaloneValidator as { query?: { properties?: object } }[]).find((g) => g.query);
    expect(Object.keys(guard?.query?.properties ?? {})).toEqual(["guarded"]);
  });

  test("so the document has the guard's parameters beside the route's own, and the body and answer", () => {
    const doc = buildOpenApi(app.routes, { title: "t", version: "0" }) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const op = doc.paths["/things/{id}"]!.post!;
    const names = (op.parameters as { name: string; in: string }[]).map((p) => `${p.in}:${p.name}`).sort();
    expect(names).toEqual(["path:id", "query:guarded", "query:own"]);
    expect(op.summary).toBe("Make a thing");
    expect(op.requestBody).toBeDefined();
    expect(Object.keys(op.responses as object)).toContain("200");
    expect(doc.paths["/plain"]!.get!.summary).toBe("Plain");
  });
});
