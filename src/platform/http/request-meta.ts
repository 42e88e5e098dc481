/**
 * Facts about a request that the front end knows and the app cannot see (peer address,
 * request id), and facts the app learns that the front end logs (route, credential).
 */
export interface RequestMeta {
  id: string;
  ip: string;
  route?: string;
  credential?: string;
  /** Why the answer is a 5xx (for its log line): the problem's type and detail, or the error. */
  reason?: string;
  /** performance.now() when the front end received it; the app's own start otherwise. */
  startedAt?: number;
}

// A symbol-keyed property on the Request, not a WeakMap: it is read several times per request.
const META = Symbol("parkd.meta");
type WithMeta = Request & { [META]?: RequestMeta };

export function attachMeta(request: Request, meta: RequestMeta): void {
  (request as WithMeta)[META] = meta;
}

/** The request's meta; requests that came straight to app.handle (tests) get one on first use. */
export function metaOf(request: Request): RequestMeta {
  let meta = (request as WithMeta)[META];
  if (!meta) {
    meta = { id: crypto.randomUUID(), ip: "local" };
    (request as WithMeta)[META] = meta;
  }
  return meta;
}
