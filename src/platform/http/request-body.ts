/**
 * A request's body as the app reads it, never past its limit: JSON (UTF-8, parsed once, its text
 * kept for the ticket event log), unless the route declares a raw body (a photo), whose bytes are
 * handed over unparsed.
 */
import { trimOws } from "./http1.ts";
import { PathTable } from "./path-template.ts";
import { Problem, problems } from "./problem.ts";

/** application/json, or any application/*+json. */
export function isJsonContentType(contentType: string | null | undefined): boolean {
  if (!contentType || contentType === "application/json") return true;
  const essence = trimOws(contentType.split(";")[0]!).toLowerCase();
  return essence === "application/json" || (essence.startsWith("application/") && essence.endsWith("+json"));
}

/** \s is exactly what String.prototype.trim removes: a body is blank when nothing else is in it. */
const NOT_BLANK = /\S/;

/**
 * The one way a body becomes a value: JSON when the Content-Type says JSON or is absent,
 * 415 otherwise, 400 when it does not parse. An empty body is `undefined`.
 */
export function parseJsonText(text: string, contentType: string | null | undefined): unknown {
  if (!NOT_BLANK.test(text)) return undefined;
  if (!isJsonContentType(contentType)) throw problems.unsupportedMediaType(contentType ?? "");
  try {
    return JSON.parse(text);
  } catch (e) {
    throw problems.malformedJson(`The body is not valid JSON: ${(e as Error).message}`);
  }
}

const RAW_BODY = Symbol("parkd.rawBody");
type WithRawBody = Request & { [RAW_BODY]?: string };

/**
 * The body text exactly as it arrived, for requests whose body went through readJsonBody.
 * Features that must keep what a sender wrote (the ticket event log) read it here, since the
 * stream can be read only once.
 */
export function rawBodyOf(request: Request): string | undefined {
  return (request as WithRawBody)[RAW_BODY];
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The charset parameter of a Content-Type, lower case, or undefined when it has none. */
function charsetOf(contentType: string | null): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType ?? "");
  return m?.[1]?.toLowerCase();
}

/**
 * The body as text. JSON is UTF-8 (RFC 8259): a body that is not valid UTF-8, or that declares
 * another charset, is refused rather than read with U+FFFD in place of what the sender meant,
 * which would then be stored as if it had been sent.
 */
function bodyText(bytes: Uint8Array, contentType: string | null): string {
  const json = isJsonContentType(contentType);
  const charset = charsetOf(contentType);
  if (json && charset !== undefined && charset !== "utf-8" && charset !== "utf8")
    throw problems.invalidEncoding(`The body must be UTF-8 JSON; it declares charset=${charset}`);
  try {
    return UTF8.decode(bytes);
  } catch {
    if (!json) throw problems.unsupportedMediaType(contentType ?? "");
    throw problems.invalidEncoding("The body is not valid UTF-8");
  }
}

/** A JSON body from its bytes, as readJsonBody reads it: its text (kept as sent) and its value. */
export function jsonBodyOf(bytes: Uint8Array, contentType: string | null): { text: string; value: unknown } {
  const text = bodyText(bytes, contentType);
  return { text, value: parseJsonText(text, contentType) };
}

/** `limit` repeats the front end's body limit for requests that reach the app another way. */
export async function readJsonBody(request: Request, limit = Number.POSITIVE_INFINITY): Promise<unknown> {
  if (request.body === null) return undefined;
  const bytes = await request.bytes();
  if (bytes.length > limit) throw problems.payloadTooLarge(limit);
  const contentType = request.headers.get("content-type");
  const text = bodyText(bytes, contentType);
  (request as WithRawBody)[RAW_BODY] = text;
  return parseJsonText(text, contentType);
}

export function asProblem(e: unknown): Problem | undefined {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
  if (cause instanceof Problem) return cause;
  return undefined;
}

/**
 * A route whose body is raw bytes (a photo) rather than JSON, up to its own limit: the front end
 * lets such a body through past --body-limit-kb, and the request handling hands the route the
 * bytes instead of parsing them. Declared by the route itself (its `rawBody` option).
 */
export interface RawBodyRoute {
  method: string;
  /** The route's template, as Elysia names it (`/api/v1/x/:id/photos`). */
  route: string;
  limit: number;
}

export interface RawBodies {
  /** The body limit of a request, by method and path, as the front end sees it before routing: a JSON body's unless the route takes raw bytes. */
  limitOf(method: string, path: string): number;
  /** The raw-body limit of a matched route; undefined for a JSON route. */
  routeLimit(method: string, route: string): number | undefined;
}

/** `routes` is read at the first question: the app's routes are all declared by then. */
export function rawBodies(routes: () => readonly RawBodyRoute[], jsonLimit: number): RawBodies {
  // The template's paths as the router takes them (a trailing slash too): a raw body's limit is
  // raised only for the route that reads it.
  let table: PathTable<number> | undefined;
  const tableOf = () =>
    (table ??= new PathTable(routes().map((r) => ({ method: r.method, template: r.route, value: r.limit }))));
  return {
    limitOf(method, path) {
      const limit = tableOf().find(method, path)?.value;
      return limit === undefined ? jsonLimit : Math.max(limit, jsonLimit);
    },
    routeLimit(method, route) {
      // The router's template, read as a path, is taken by its own entry.
      const found = tableOf().find(method, route);
      return found?.template === route ? found.value : undefined;
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
