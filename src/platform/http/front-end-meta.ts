import type { RequestMeta } from "./request-meta.ts";

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
