import { problems } from "./problem.ts";

/**
 * A route whose body is raw bytes (a photo) rather than JSON, up to its own limit: the front end
 * lets such a body through past --body-limit-kb, and the request handling hands the route the
 * bytes instead of parsing them. Declared by the module that serves the route (AppModule.rawBodies).
 */
export interface RawBodyRoute {
  method: string;
  /** The route's template, as Elysia names it (`/api/v1/x/:id/photos`). */
  route: string;
  limit: number;
}

/** A template as a matcher of request paths: each `:param` one path segment. */
function pathPattern(route: string): RegExp {
  const parts = route
    .split("/")
    .map((p) => (p.startsWith(":") ? "[^/]+" : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${parts.join("/")}$`);
}

export interface RawBodies {
  /** The body limit of a request, by method and path, as the front end sees it before routing. */
  limitOf(method: string, path: string, fallback: number): number;
  /** The raw-body limit of a matched route; undefined for a JSON route. */
  routeLimit(method: string, route: string): number | undefined;
}

export function rawBodies(routes: readonly RawBodyRoute[]): RawBodies {
  const matchers = routes.map((r) => ({ ...r, pattern: pathPattern(r.route) }));
  return {
    limitOf(method, path, fallback) {
      for (const m of matchers)
        if (m.method === method && m.pattern.test(path)) return Math.max(m.limit, fallback);
      return fallback;
    },
    routeLimit(method, route) {
      return matchers.find((m) => m.method === method && m.route === route)?.limit;
    },
  };
}

/** The body's bytes, refused past `limit` (413) as a JSON body is past its own. */
export async function readRawBody(request: Request, limit: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  const bytes = await request.bytes();
  if (bytes.length > limit) throw problems.payloadTooLarge(limit);
  return bytes;
}
