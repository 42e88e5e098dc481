import type { Metrics } from "../metrics.ts";
import { metaOf } from "./request-meta.ts";

interface Handles {
  handle: (request: Request) => Promise<Response>;
}

/**
 * Counts every request that reaches app.handle (tests, and anything not behind the front end).
 * When `serve` runs, the front end's `observe` reports requests instead (it also sees the ones
 * the app never gets, such as a 413 on the body limit) and marks them, so none counts twice.
 */
export function countRequests<A extends Handles>(app: A, metrics: Metrics): A {
  const inner = app.handle;
  const counted = async (request: Request) => {
    const started = performance.now();
    let status = 500;
    try {
      const response = await inner(request);
      status = response.status;
      return response;
    } finally {
      metrics.request({
        method: request.method,
        route: metaOf(request).route ?? "(unmatched)",
        status,
        ms: performance.now() - started,
      });
    }
  };
  // Not async itself: a request the front end counts costs no extra promise.
  app.handle = (request: Request) => (metrics.countedByFrontEnd(request) ? inner(request) : counted(request));
  return app;
}
