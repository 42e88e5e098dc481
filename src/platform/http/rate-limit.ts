/**
 * Rate limiting, all of it: the limiters (failed authentications per key, a token bucket per
 * credential or address), the rates the box allows (RateLimits), and how a public route asks for
 * the per-address bucket (the `rateLimit: "address"` option, taken by the root's hook).
 */
import { type DocumentDecoration, Elysia } from "elysia";
import type { Credential } from "../../domain/credentials.ts";
import type { Metrics } from "../metrics.ts";
import type { TrustedProxies } from "./client-address.ts";
import { PathTable } from "./path-template.ts";
import { Problem, problemAnswer, problems } from "./problem.ts";
import { metaOf } from "./request-meta.ts";

/** Keys a limiter holds at most: past it, expired ones go first, then the oldest. */
export const MAX_KEYS = 10_000;

/**
 * Makes room for one more key: drops what `expired` says is over, then (a flood of distinct
 * keys, such as IPv6 addresses or invented user names) the oldest entries, so memory stays
 * bounded whatever arrives. A key dropped early starts afresh: a fresh window, a full bucket.
 */
function makeRoom<V>(map: Map<string, V>, max: number, expired: (v: V) => boolean): void {
  if (map.size < max) return;
  for (const [key, v] of map) if (expired(v)) map.delete(key);
  // Down to nine tenths, not to one below the cap: a flood of new keys would otherwise walk the
  // whole map on every request once it is full. Oldest first: a Map iterates in insertion
  // order, and entries are re-inserted when renewed.
  const room = max - Math.max(1, Math.floor(max / 10));
  for (const key of map.keys()) {
    if (map.size <= room) break;
    map.delete(key);
  }
}

/**
 * Counts failed authentications per key (an address, or an address and a user name) in a fixed
 * window. Past the limit the key gets 429 until the window ends, whether or not its next guess
 * would be right.
 */
export class FailureLimiter {
  private readonly entries = new Map<string, { count: number; windowStart: number }>();
  private readonly max: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  private readonly maxKeys: number;

  constructor(opts: { max?: number; windowMs?: number; now?: () => number; maxKeys?: number } = {}) {
    this.max = opts.max ?? 10;
    this.windowMs = opts.windowMs ?? 60_000;
    this.now = opts.now ?? Date.now;
    this.maxKeys = opts.maxKeys ?? MAX_KEYS;
  }

  /** Seconds the key must wait, or 0 when it may try; `max`: this key's own limit. */
  blockedFor(key: string, max = this.max): number {
    const e = this.entries.get(key);
    if (!e) return 0;
    const elapsed = this.now() - e.windowStart;
    if (elapsed >= this.windowMs) {
      this.entries.delete(key);
      return 0;
    }
    return e.count >= max ? Math.ceil((this.windowMs - elapsed) / 1000) : 0;
  }

  /** Counts a failure; true when this one locks the key out (once per window). */
  fail(key: string, max = this.max): boolean {
    const now = this.now();
    const e = this.entries.get(key);
    if (!e || now - e.windowStart >= this.windowMs) {
      this.entries.delete(key);
      makeRoom(this.entries, this.maxKeys, (x) => now - x.windowStart >= this.windowMs);
      this.entries.set(key, { count: 1, windowStart: now });
      return max <= 1;
    }
    e.count++;
    return e.count === max;
  }

  /** Seconds until the window of this key ends. */
  windowLeft(key: string): number {
    const e = this.entries.get(key);
    return e ? Math.max(0, Math.ceil((this.windowMs - (this.now() - e.windowStart)) / 1000)) : 0;
  }

  get limit(): number {
    return this.max;
  }

  /** Keys held now (for tests and the bound). */
  get size(): number {
    return this.entries.size;
  }
}

/**
 * A token bucket per credential: `perSecond` requests a second on average, up to `burst` at once.
 * perSecond 0 turns it off.
 */
export class RequestRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  readonly perSecond: number;
  readonly burst: number;
  private readonly now: () => number;

  private readonly maxKeys: number;

  constructor(opts: { perSecond: number; burst: number; now?: () => number; maxKeys?: number }) {
    this.perSecond = opts.perSecond;
    this.burst = Math.max(1, opts.burst);
    this.now = opts.now ?? Date.now;
    this.maxKeys = opts.maxKeys ?? MAX_KEYS;
  }

  /** Takes one request from the key's bucket: 0 when it may go, else whole seconds to wait. */
  take(key: string): number {
    if (this.perSecond <= 0) return 0;
    const now = this.now();
    let b = this.buckets.get(key);
    if (!b) {
      // A bucket that has refilled is the same as no bucket.
      makeRoom(
        this.buckets,
        this.maxKeys,
        (x) => x.tokens + ((now - x.at) / 1000) * this.perSecond >= this.burst,
      );
      b = { tokens: this.burst, at: now };
      this.buckets.set(key, b);
    } else {
      b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
      b.at = now;
      // Renewed: last in line for makeRoom, so a flood of new keys drops idle buckets first,
      // never the busy one it would refill.
      this.buckets.delete(key);
      this.buckets.set(key, b);
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
  }

  /** Puts back a request `take` let go that was then not made (answered by someone else). */
  giveBack(key: string): void {
    const b = this.buckets.get(key);
    if (b) b.tokens = Math.min(this.burst, b.tokens + 1);
  }

  /** Keys held now (for tests and the bound). */
  get size(): number {
    return this.buckets.size;
  }
}

/**
 * The bucket an address draws on: an IPv6 client is its /64, since one host may use any address
 * in its prefix (privacy addresses), and would otherwise get a fresh bucket at will; an IPv4
 * client (an IPv4-mapped one too) is its address.
 */
export function addressBucket(address: string): string {
  const mapped = address.toLowerCase().startsWith("::ffff:") && address.includes(".");
  const a = mapped ? address.slice(7) : address;
  if (!a.includes(":")) return a;
  const zone = a.indexOf("%");
  const bare = (zone < 0 ? a : a.slice(0, zone)).toLowerCase();
  const [head = "", tail] = bare.split("::");
  const front = head ? head.split(":") : [];
  const back = tail ? tail.split(":") : [];
  const groups =
    tail === undefined
      ? front
      : [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill("0"), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(":")}::/64`;
}

/**
 * The request rates the box allows: each credential its own bucket (taken when it is
 * authenticated, src/platform/http/auth.ts), and on public routes each client address its own
 * (the `rateLimit: "address"` option of rateLimitOption). A request over either gets 429
 * `rate-limited` with Retry-After.
 */
export class RateLimits {
  constructor(
    readonly byCredential: RequestRateLimiter,
    readonly byAddress: RequestRateLimiter,
    private readonly trustedProxies: TrustedProxies,
    private readonly metrics?: Pick<Metrics, "rateLimit">,
  ) {}

  /** Takes one request from the credential's bucket; throws 429 when it is empty. */
  forCredential(credential: Credential): void {
    const wait = this.byCredential.take(bucketOf(credential));
    if (wait === 0) return;
    this.metrics?.rateLimit(credential.kind);
    throw problems.rateLimited(wait, this.byCredential.perSecond, "This credential");
  }

  /** Takes one request from the credential's bucket when it has one; false (nothing counted) when empty. */
  admits(credential: Credential): boolean {
    return this.byCredential.take(bucketOf(credential)) === 0;
  }

  /** The request `admits` took, given back: it was declined after all, and the app takes its own. */
  giveBack(credential: Credential): void {
    this.byCredential.giveBack(bucketOf(credential));
  }

  /** Takes one request from the client address's bucket (behind a trusted proxy, the client's). */
  forAddress(request: Request): void {
    const meta = metaOf(request);
    const client = this.trustedProxies.client(meta.ip, request.headers.get("x-forwarded-for"));
    const wait = this.byAddress.take(`address ${addressBucket(client)}`);
    if (wait === 0) return;
    this.metrics?.rateLimit("address");
    throw problems.rateLimited(wait, this.byAddress.perSecond, "This address");
  }
}

const bucketOf = (credential: Credential) => `${credential.kind} ${credential.id}`;

/** Whose bucket a route's requests draw on: public routes have no credential, so their address. */
export type RateLimitBy = "address";

const MARK = "x-rate-limit";

/**
 * `{ rateLimit: "address" }` on a public route (lot reads, quotes, the kiosk board, handheld
 * setup, sign-in, the document, readiness): each client address draws on its own token bucket.
 * The option marks the route; the bucket is taken by `limitMarkedRoutes` at the root, before
 * anything reads the request (body, headers, credentials), so a request refused for its body
 * still counts. Routes with `auth` are limited per credential by the auth plugin instead.
 */
export const rateLimitOption = new Elysia({ name: "rate-limit" }).macro({
  rateLimit: (by: RateLimitBy) => ({
    // Also what the OpenAPI document reads to declare the route's 429 (src/modules/operations).
    // An extension field, which Elysia's own type for `detail` does not name.
    detail: { [MARK]: by } as DocumentDecoration,
  }),
});

export interface MarkedRoute {
  method: string;
  path: string;
  hooks?: unknown;
}

const markOf = (route: MarkedRoute) =>
  ((route.hooks as { detail?: Record<string, unknown> } | undefined)?.detail?.[MARK] as string | undefined) ??
  null;

/**
 * The root's hook: a request for a route marked `rateLimit: "address"` (HEAD as its GET) takes
 * one request from its address's bucket first, and gets 429 when it is empty. The marked routes
 * are read from the app's route list, compiled again only when it grows.
 */
export function limitMarkedRoutes(limits: RateLimits, routes: () => readonly MarkedRoute[]) {
  // Every request passes here (plate lookups at tens of thousands a second): a marked route's
  // static path is one map lookup, a templated one is tested only past its static prefix.
  let marked: PathTable<true> | undefined;
  return new Elysia({ name: "limit-marked-routes" }).onRequest(({ request }) => {
    if (limits.byAddress.perSecond <= 0) return;
    // Read once, at the first request: the box's routes are all composed before it serves.
    marked ??= new PathTable(
      routes()
        .filter((r) => markOf(r) === "address")
        .map((r) => ({ method: r.method.toUpperCase(), template: r.path, value: true as const })),
    );
    const url = request.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    const end = url.indexOf("?", start);
    const path = start < 0 ? "/" : url.slice(start, end < 0 ? undefined : end);
    const hit = marked.find(request.method === "HEAD" ? "GET" : request.method, path) !== undefined;
    if (!hit) return;
    try {
      limits.forAddress(request);
    } catch (e) {
      if (e instanceof Problem) return problemAnswer(e, path);
      throw e;
    }
  });
}
