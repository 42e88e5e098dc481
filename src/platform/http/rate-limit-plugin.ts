import { type DocumentDecoration, Elysia } from "elysia";
import { Problem, problemAnswer } from "./problem.ts";
import type { RateLimits } from "./rate-limit.ts";
import { templatePattern } from "./route-methods.ts";

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
  // static path is one Set lookup, a templated one is tested only past its static prefix.
  let exact: Set<string> | undefined;
  let templated: { key: string; prefix: string; re: RegExp }[] = [];
  return new Elysia({ name: "limit-marked-routes" }).onRequest(({ request }) => {
    if (limits.byAddress.perSecond <= 0) return;
    // Read once, at the first request: the box's routes are all composed before it serves.
    if (!exact) {
      const marked = routes().filter((r) => markOf(r) === "address");
      exact = new Set(
        marked.filter((r) => !/[:*]/.test(r.path)).map((r) => `${r.method.toUpperCase()} ${r.path}`),
      );
      templated = marked
        .filter((r) => /[:*]/.test(r.path))
        .map((r) => ({
          key: r.method.toUpperCase(),
          prefix: r.path.slice(0, r.path.search(/[:*]/)),
          re: templatePattern(r.path),
        }));
    }
    const url = request.url;
    const start = url.indexOf("/", url.indexOf("//") + 2);
    const end = url.indexOf("?", start);
    let path = start < 0 ? "/" : url.slice(start, end < 0 ? undefined : end);
    if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
    const method = request.method === "HEAD" ? "GET" : request.method;
    const hit =
      exact.has(`${method} ${path}`) ||
      templated.some((t) => t.key === method && path.startsWith(t.prefix) && t.re.test(path));
    if (!hit) return;
    try {
      limits.forAddress(request);
    } catch (e) {
      if (e instanceof Problem) return problemAnswer(e, path);
      throw e;
    }
  });
}
