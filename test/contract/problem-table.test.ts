import { describe, expect, test } from "bun:test";
import { PROBLEMS, type ProblemEntry, problemTypeUri } from "../../src/domain/problems.ts";
import { openApiPath } from "../../src/modules/operations/openapi.ts";
import { declarationsOf } from "../../src/platform/http/route-declaration.ts";
import { call, testApp } from "../support/app.ts";

type Json = Record<string, unknown>;

/**
 * The one problem table (src/domain/problems.ts), the routes' declarations and the document
 * agree: a problem a route declares is listed in its answer for the entry's status with the
 * table's title, and every type of the table is answered by a class of routes or by a route that
 * declares it.
 */
const s = testApp();
const doc = (await call(s.app, "GET", "/openapi.json")).json as Json;
const paths = doc.paths as Record<string, Record<string, Json>>;

const ENTRIES = Object.entries(PROBLEMS) as [string, ProblemEntry][];
const named = declarationsOf(s.app.routes).flatMap((d) =>
  d.problems.map((type) => ({ type, e: PROBLEMS[type] as ProblemEntry, operation: d.key })),
);

function responseOf(operation: string, status: number): Json | undefined {
  const [method, template] = operation.split(" ") as [string, string];
  const op = paths[openApiPath(template).path]?.[method.toLowerCase()];
  return (op?.responses as Record<string, Json> | undefined)?.[String(status)];
}

describe("the problem table and the document", () => {
  test("every problem a route declares is in its answer, under the type's status", () => {
    expect(named.length).toBeGreaterThan(30);
    const missing = named
      .filter(({ type, e, operation }) => {
        const media = (responseOf(operation, e.status)?.content as Json | undefined)?.[
          "application/problem+json"
        ] as Json | undefined;
        const example = (media?.examples as Record<string, Json> | undefined)?.[type]?.value as
          | Json
          | undefined;
        return example?.type !== problemTypeUri(type) || example?.title !== e.title;
      })
      .map(({ type, e, operation }) => `${operation} ${e.status} ${type}`);
    expect(missing).toEqual([]);
  });

  test("every problem type in the document is the table's, with the table's status and title", () => {
    const seen = new Set<string>();
    for (const item of Object.values(paths))
      for (const op of Object.values(item))
        for (const [status, r] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
          const media = (r.content as Json | undefined)?.["application/problem+json"] as Json | undefined;
          for (const [type, ex] of Object.entries((media?.examples ?? {}) as Record<string, Json>)) {
            const value = ex.value as Json;
            const entry = (PROBLEMS as Record<string, ProblemEntry>)[type];
            expect({ type, status: Number(status), title: value.title }).toEqual({
              type,
              status: entry?.status ?? -1,
              title: entry?.title ?? "(not in the table)",
            });
            seen.add(type);
          }
        }
    // Only the front end's own answers (before any route) are in the table and not the document.
    const unlisted = ENTRIES.filter(([type]) => !seen.has(type))
      .filter(([, e]) => !e.classes.includes("front-end"))
      .map(([type]) => type);
    expect(unlisted).toEqual([]);
  });
});
