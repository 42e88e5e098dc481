import { writeFileSync } from "node:fs";
import { metaOf } from "../../src/platform/http/request-meta.ts";

/**
 * Records what the route tests see each route answer (method, route template, status, problem
 * type), so that a later step (test/contract/check-observed.ts, run by ./build.sh test) can
 * check every one is declared in /openapi.json. On only when PARKD_OBSERVED_FILE names a file;
 * the whole set is written by the run-wide afterAll in preload.ts, whatever order files ran in.
 */
const file = process.env.PARKD_OBSERVED_FILE;
// One set for the whole run, even if a test file were given its own copy of this module.
const KEY = Symbol.for("parkd.observed");
const holder = globalThis as { [KEY]?: Set<string> };
holder[KEY] ??= new Set<string>();
const seen = holder[KEY];

export function writeObserved(): void {
  if (file && seen.size) writeFileSync(file, `${[...seen].join("\n")}\n`);
}

export interface Observed {
  method: string;
  route: string;
  status: number;
  type?: string;
}

interface Handles {
  handle: (request: Request) => Promise<Response>;
}

export function observeStatuses<A extends Handles>(app: A): A {
  if (!file) return app;
  const inner = app.handle;
  app.handle = async (request: Request) => {
    const response = await inner(request);
    const route = metaOf(request).route;
    if (route) {
      const entry: Observed = { method: request.method, route, status: response.status };
      if (response.headers.get("content-type")?.startsWith("application/problem+json")) {
        try {
          entry.type = (JSON.parse(await response.clone().text()) as { type?: string }).type;
        } catch {}
      }
      seen.add(JSON.stringify(entry));
    }
    return response;
  };
  return app;
}
