/**
 * Run by `./build.sh test` after the tests: every (route, status, problem type) the route tests
 * observed (test/support/observed.ts) must be declared for that operation in /openapi.json.
 *   bun test/contract/check-observed.ts FILE
 */
import { existsSync, readFileSync } from "node:fs";
import { createApp } from "../../src/app.ts";
import { createContext } from "../../src/context.ts";
import { openApiPath } from "../../src/modules/operations/openapi.ts";
import { setLogging } from "../../src/platform/log.ts";
import { openMemoryStore } from "../../src/platform/store/db.ts";
import type { Observed } from "../support/observed.ts";

type Json = Record<string, unknown>;

const file = process.argv[2];
if (!file || !existsSync(file)) {
  console.error(`check-observed: no recorded statuses in ${file ?? "(no file given)"}; did the tests run?`);
  process.exit(1);
}
const observed = [...new Set(readFileSync(file, "utf8").split("\n").filter(Boolean))].map(
  (l) => JSON.parse(l) as Observed,
);

setLogging(false);
const app = createApp(createContext(openMemoryStore(), { timezone: "Europe/Stockholm" }));
const doc = (await (await app.handle(new Request("http://localhost/openapi.json"))).json()) as Json;
const paths = doc.paths as Record<string, Record<string, Json>>;
const known = new Set(app.routes.map((r) => `${r.method.toUpperCase()} ${r.path}`));

/** The problem types a declared response names (none listed: any problem type). */
function declaredTypes(response: Json): string[] | undefined {
  const media = (response.content as Json | undefined)?.["application/problem+json"] as Json | undefined;
  const schema = media?.schema as Json | undefined;
  const allOf = schema?.allOf as Json[] | undefined;
  const type = ((allOf?.[1]?.properties as Json | undefined)?.type as Json | undefined)?.enum;
  return Array.isArray(type) ? (type as string[]) : undefined;
}

const missing: string[] = [];
const covered = new Set<string>();
for (const o of observed) {
  const key = `${o.method.toUpperCase()} ${o.route}`;
  // Routes a test added for itself (probes) are not part of the served app.
  if (!known.has(key)) continue;
  covered.add(key);
  const op = paths[openApiPath(o.route).path]?.[o.method.toLowerCase()];
  const response = (op?.responses as Record<string, Json> | undefined)?.[String(o.status)];
  if (!response) {
    missing.push(`${key} answered ${o.status}${o.type ? ` ${o.type}` : ""}, not declared`);
    continue;
  }
  const types = declaredTypes(response);
  if (o.type && types && !types.includes(o.type))
    missing.push(`${key} answered ${o.status} ${o.type}, declared only ${types.join(", ")}`);
}

const notSeen = [...known].filter((k) => !covered.has(k));
console.log(
  `check-observed: ${observed.length} (route, status, type) seen by the tests, ${covered.size} of ${known.size} operations` +
    (notSeen.length ? ` (not exercised by route tests: ${notSeen.join(", ")})` : ""),
);
if (missing.length) {
  console.error(`check-observed: answers not declared in /openapi.json:\n  ${missing.join("\n  ")}`);
  process.exit(1);
}
console.log("check-observed: every observed status and problem type is declared");
