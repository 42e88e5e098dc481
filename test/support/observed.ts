import { writeFileSync } from "node:fs";
import { metaOf } from "../../src/platform/http/request-meta.ts";

/**
 * Records what the route tests see each route answer (method, route template, status, problem
 * type), so that a later step (test/contract/check-observed.ts, run by ./build.sh test) can
 * check every one is declared in /openapi.json; and, for each of those, the first few whole
 * exchanges (request and answer, JSON bodies only), which the same step has Prism's
 * validator check against the document both ways. On only when PARKD_OBSERVED_FILE names a file;
 * the whole set is written by the run-wide afterAll in preload.ts, whatever order files ran in.
 */
const file = process.env.PARKD_OBSERVED_FILE;
/** Exchanges kept per method, route, status and problem type: enough variety, a bounded file. */
const EXCHANGES_PER_KEY = 3;
/** Bodies past this are not kept (exports, photos): the statuses still are. */
const MAX_BODY = 256 * 1024;

interface Recorded {
  seen: Set<string>;
  exchanges: Map<string, Exchange[]>;
}
// One record for the whole run, even if a test file were given its own copy of this module.
const KEY = Symbol.for("parkd.observed");
const holder = globalThis as { [KEY]?: Recorded };
holder[KEY] ??= { seen: new Set<string>(), exchanges: new Map() };
const recorded = holder[KEY];

export function writeObserved(): void {
  if (!file || !recorded.seen.size) return;
  writeFileSync(file, `${[...recorded.seen].join("\n")}\n`);
  const all = [...recorded.exchanges.values()].flat();
  writeFileSync(exchangesFileOf(file), `${all.map((e) => JSON.stringify(e)).join("\n")}\n`);
}

/** Where the exchanges of a run whose statuses are in `statusesFile` are written. */
export function exchangesFileOf(statusesFile: string): string {
  return statusesFile.replace(/(\.jsonl)?$/, ".exchanges.jsonl");
}

export interface Observed {
  method: string;
  route: string;
  status: number;
  type?: string;
}

export interface Exchange extends Observed {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response: { headers: Record<string, string>; body?: string };
}

interface Handles {
  handle: (request: Request) => Promise<Response>;
}

/**
 * Only JSON bodies are read: reading a clone of any other answer would change what the test
 * itself reads (the runtime keeps a leading BOM in text() of a string body, not of a copy's bytes).
 */
const json = (contentType: string | null) =>
  !!contentType && /^application\/([a-z.+-]*\+)?json/.test(contentType);

async function bodyText(m: Request | Response): Promise<string | undefined | null> {
  if (!m.body) return undefined;
  if (!json(m.headers.get("content-type"))) return null;
  const text = await m.text();
  return text.length > MAX_BODY ? null : text;
}

export function observeStatuses<A extends Handles>(app: A): A {
  if (!file) return app;
  const inner = app.handle;
  app.handle = async (request: Request) => {
    const copy = request.clone();
    const response = await inner(request);
    const route = metaOf(request).route;
    if (route) {
      const entry: Observed = { method: request.method, route, status: response.status };
      if (response.headers.get("content-type")?.startsWith("application/problem+json")) {
        try {
          entry.type = (JSON.parse(await response.clone().text()) as { type?: string }).type;
        } catch {}
      }
      const key = JSON.stringify(entry);
      recorded.seen.add(key);
      const kept = recorded.exchanges.get(key) ?? [];
      // An event stream never ends: its answer is not read here.
      if (
        kept.length < EXCHANGES_PER_KEY &&
        !response.headers.get("content-type")?.startsWith("text/event-stream")
      ) {
        const requestBody = await bodyText(copy);
        // Not even cloned unless it is JSON: a clone turns the test's own body into a copy.
        const responseBody = json(response.headers.get("content-type"))
          ? await bodyText(response.clone())
          : response.status === 204 || response.status === 304
            ? undefined
            : null;
        if (requestBody !== null && responseBody !== null) {
          kept.push({
            ...entry,
            request: {
              method: request.method,
              url: request.url,
              headers: Object.fromEntries(copy.headers),
              ...(requestBody === undefined ? {} : { body: requestBody }),
            },
            response: {
              headers: Object.fromEntries(response.headers),
              ...(responseBody === undefined ? {} : { body: responseBody }),
            },
          });
          recorded.exchanges.set(key, kept);
        }
      }
    }
    return response;
  };
  return app;
}
