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

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

// Unique per process run and cheap: a random prefix fixed at start and a counter.
const ID_PREFIX = Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString("hex");
let requestCounter = 0;
export function nextRequestId(): string {
  return `${ID_PREFIX}-${(++requestCounter).toString(36)}`;
}

/** The client's X-Request-Id when it is safe to log and echo, else one of ours. */
export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : nextRequestId();
}

/** A front end's RequestMeta: the peer address is asked for only when something needs it. */
export class FrontEndMeta implements RequestMeta {
  route?: string;
  credential?: string;
  reason?: string;
  #ip: string | undefined;
  constructor(
    public id: string,
    private readonly peer: () => string,
    public startedAt: number,
  ) {}
  get ip(): string {
    this.#ip ??= this.peer();
    return this.#ip;
  }
}
