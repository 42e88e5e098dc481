/**
 * Facts about a request that the front end knows and the app cannot see (peer address,
 * request id), and facts the app learns that the front end logs (route, credential).
 */
export interface RequestMeta {
  id: string;
  ip: string;
  route?: string;
  credential?: string;
}

const metas = new WeakMap<Request, RequestMeta>();

export function attachMeta(request: Request, meta: RequestMeta): void {
  metas.set(request, meta);
}

/** The request's meta; requests that came straight to app.handle (tests) get one on first use. */
export function metaOf(request: Request): RequestMeta {
  let meta = metas.get(request);
  if (!meta) {
    meta = { id: crypto.randomUUID(), ip: "local" };
    metas.set(request, meta);
  }
  return meta;
}
