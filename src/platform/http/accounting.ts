import { logRequest, type RequestLine } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import { metaOf } from "./request-meta.ts";

export type { RequestLine };

/**
 * The one way a finished request is accounted: its log line and its metrics. Requests that reach
 * the app are accounted by the wrapped `app.handle` (so tests through app.handle count exactly as
 * served ones do); the front end accounts only what it answers itself (a body over the limit,
 * a request too broken to parse).
 */
export class RequestAccounting {
  constructor(private readonly metrics: Metrics) {}

  finish(entry: RequestLine): void {
    // Every 5xx line says why; one the app did not explain is named by its route, which for the
    // front end's own answers says what happened ("(request timeout)").
    if (entry.status >= 500 && entry.reason === undefined)
      entry.reason = entry.route.startsWith("(") ? entry.route : `the route answered ${entry.status}`;
    logRequest(entry);
    this.metrics.request(entry);
  }
}

interface Handles {
  handle: (request: Request) => Promise<Response>;
}

/** Makes `app.handle` account every request it answers, whoever called it. */
export function accountRequests<A extends Handles>(app: A, accounting: RequestAccounting): A {
  const inner = app.handle;
  app.handle = async (request: Request) => {
    const meta = metaOf(request);
    const started = meta.startedAt ?? performance.now();
    let status = 500;
    try {
      const response = await inner(request);
      status = response.status;
      return response;
    } catch (e) {
      meta.reason ??= `internal: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
      throw e;
    } finally {
      accounting.finish({
        method: request.method,
        route: meta.route ?? "(unmatched)",
        status,
        ms: Math.round((performance.now() - started) * 100) / 100,
        client: meta.ip,
        credential: meta.credential,
        requestId: meta.id,
        ...(meta.reason === undefined ? {} : { reason: meta.reason }),
      });
    }
  };
  return app;
}
