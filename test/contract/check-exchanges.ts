/**
 * Run by `./build.sh test` after the tests, beside check-observed.ts: the route tests' recorded
 * exchanges (test/support/observed.ts, a few per route, status and problem type) checked against
 * /openapi.json by Stoplight Prism's own validator, the one its proxy runs, both ways:
 * - every answer, whatever its status, must be one the document describes;
 * - every request the box accepted (an answer under 400) must be one the document accepts, or a
 *   generated client would refuse to send what the box takes.
 * Requests the box refused (4xx) are sent on purpose by the tests and are not held against the
 * document; how many of its validation refusals the document also refuses is printed.
 *   bun test/contract/check-exchanges.ts EXCHANGES_FILE
 */
import { existsSync, readFileSync } from "node:fs";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import route from "@stoplight/prism-http/dist/router";
import { validateInput, validateOutput } from "@stoplight/prism-http/dist/validator";
import { createApp } from "../../src/app.ts";
import { createContext } from "../../src/context.ts";
import { setLogging } from "../../src/platform/log.ts";
import { openMemoryStore } from "../../src/platform/store/db.ts";
import type { Exchange } from "../support/observed.ts";

type Json = Record<string, unknown>;
interface Diagnostic {
  path?: string[];
  message: string;
  severity: number;
}

const file = process.argv[2];
if (!file || !existsSync(file)) {
  console.error(`check-exchanges: no recorded exchanges in ${file ?? "(no file given)"}; did the tests run?`);
  process.exit(1);
}
const exchanges = readFileSync(file, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Exchange);

setLogging(false);
const app = createApp(createContext(openMemoryStore(), { timezone: "Europe/Stockholm" }));
const doc = (await (await app.handle(new Request("http://localhost/openapi.json"))).json()) as Json;
const operations = await getHttpOperationsFromSpec(doc);

/** A body as Prism's proxy hands it to the validator: parsed when it is JSON. */
function bodyOf(headers: Record<string, string>, body: string | undefined): unknown {
  if (body === undefined) return undefined;
  if (/json/.test(headers["content-type"] ?? "")) {
    try {
      return JSON.parse(body);
    } catch {
      return body;
    }
  }
  return body;
}

const errors = (d: readonly Diagnostic[]) => d.filter((x) => x.severity === 0);
const say = (d: Diagnostic) => `${(d.path ?? []).join(".")}: ${d.message}`;

const violations: string[] = [];
let accepted = 0;
let refusedValidation = 0;
let refusedByDocumentToo = 0;
for (const x of exchanges) {
  const url = new URL(x.request.url);
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const had = query[k];
    query[k] = had === undefined ? v : [...(Array.isArray(had) ? had : [had]), v];
  }
  // HEAD is GET without the body (RFC 9110 §9.3.2): the document lists the GET.
  const head = x.request.method === "HEAD";
  const input = {
    method: head ? "get" : x.request.method.toLowerCase(),
    url: { path: url.pathname, query },
    headers: x.request.headers,
    body: bodyOf(x.request.headers, x.request.body),
  };
  const routed = route({ resources: operations, input } as never) as unknown as {
    _tag: "Left" | "Right";
    right?: unknown;
    left?: Error;
  };
  const name = `${x.method} ${x.route} → ${x.status}`;
  if (routed._tag !== "Right") {
    // A method or path the document does not have, refused as such: what the document implies.
    if (x.status !== 404 && x.status !== 405)
      violations.push(`${name}: the document has no operation for ${x.request.method} ${url.pathname}`);
    continue;
  }
  const resource = routed.right;
  const output = validateOutput({
    resource,
    element: {
      statusCode: x.status,
      headers: x.response.headers,
      body: bodyOf(x.response.headers, x.response.body),
    },
  } as never) as unknown as { _tag: string; left?: Diagnostic[] };
  // A HEAD answer has no body for the GET's schema to hold (check-observed checks its status).
  if (output._tag === "Left" && !head)
    for (const d of errors(output.left!)) violations.push(`${name}: answer ${say(d)}`);
  const inputCheck = validateInput({ resource, element: input } as never) as unknown as {
    _tag: string;
    left?: Diagnostic[];
  };
  const inputErrors = inputCheck._tag === "Left" ? errors(inputCheck.left!) : [];
  if (x.status < 400) {
    accepted++;
    for (const d of inputErrors) violations.push(`${name}: request ${say(d)} (the box accepted it)`);
  } else if (x.type === "/problems/validation") {
    refusedValidation++;
    if (inputErrors.length) refusedByDocumentToo++;
  }
}

console.log(
  `check-exchanges: Prism validated ${exchanges.length} recorded exchanges both ways (${accepted} accepted requests); ` +
    `${refusedByDocumentToo} of the ${refusedValidation} requests the box refused as invalid are refused by the document too`,
);
if (violations.length) {
  console.error(`check-exchanges: ${violations.length} violations:\n  ${violations.join("\n  ")}`);
  process.exit(1);
}
console.log("check-exchanges: no violation");
