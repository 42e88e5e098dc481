import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { Credential } from "../../domain/credentials.ts";
import { type AuthDeps, type AuthRequirement, admitBearer } from "./auth.ts";
import { failedWith } from "./errors.ts";
import { headerOf, type RequestHead } from "./http1.ts";
import { PathTable } from "./path-template.ts";
import { problemContent } from "./problem.ts";
import type { RequestMeta } from "./request-meta.ts";
import type { KeptBody } from "./shared-body.ts";

/**
 * Routes the front end answers from the request itself, without a fetch Request, the framework's
 * handler chain or a Response: the hottest ones (health, an attendant's plate or zone lookup, a
 * terminal's ticket event), at nearer the socket's pace. A direct route answers only the plain
 * case: a GET with no body or a POST with one, a query of the names it declares, each once and
 * in plain characters, that its schema (the app route's own) accepts, a body its reading accepts,
 * and, when it needs one, a valid Bearer token with the scope and room in its bucket. Every other
 * request, including every refusal before the work begins, is declined and answered by the app
 * exactly as before: its 401, 403, 415, 422 and 429, its lockouts, its log lines, and its 503
 * when the store fails on the way to a yes. A failure after the work began is answered with the
 * problem the app's error hook gives for it. So each refusal has one mechanism, and a direct
 * answer is the app's answer, byte for byte but its date and request id
 * (test/platform/direct*.test.ts ask both).
 */
export interface DirectAnswering<Input = unknown> {
  /** Request headers (lower case) whose presence leaves the request to the app: a conditional GET's. */
  readonly unless?: readonly string[];
  /** What the route reads of the request; anything thrown here declines (the app answers it). */
  read(
    query: Readonly<Record<string, string>>,
    body: DirectBody | null,
    params: Readonly<Record<string, string>>,
  ): Input;
  /**
   * The answer, once the request is read and admitted. Anything thrown here declines too, so it
   * must throw before any effect; a promise that rejects (its work began) is answered with the
   * problem the app's error hook would answer (errors.ts, failedWith).
   */
  answer(input: Input, credential: Credential | undefined): DirectAnswer | Promise<DirectAnswer>;
}

/**
 * A direct route: a route's `direct` option with what the route itself declares (route-declaration.ts).
 * GET or POST: a POST is taken only with a body, a GET only without one.
 */
export interface DirectRoute extends DirectAnswering {
  readonly method: "GET" | "POST";
  /**
   * The app's route, its name in logs and metrics: exact, or with one parameter as its last
   * segment (`/api/v1/tickets/zone/:zone`), whose value must be plain.
   */
  readonly path: string;
  /** The path parameter's schema, the app route's own, when the path has one. */
  readonly params?: TSchema;
  /** The query's names the route reads, with the schema the app's route validates them by. */
  readonly query?: { readonly names: readonly string[]; readonly schema: TSchema };
  /** Bearer with the route's scope only: Basic and strict bodies are always the app's. */
  readonly auth?: Pick<AuthRequirement, "scope">;
}

/** The content type the framework gives a route's answer that is a JSON value (an object, an array). */
export const JSON_VALUE_TYPE = "application/json;charset=utf-8";

/** A direct answer for a value the app's route returns as it is, serialised as the framework would. */
export function jsonValueAnswer(value: unknown): DirectAnswer {
  return { contentType: JSON_VALUE_TYPE, body: JSON.stringify(value) };
}

/** A POST's body as the front end read it. */
export interface DirectBody {
  readonly bytes: Uint8Array;
  readonly contentType: string | null;
}

/** A route's `direct` option (its input type is its own business). */
export function directAnswer<Input>(direct: DirectAnswering<Input>): DirectAnswering {
  return direct as DirectAnswering;
}

export interface DirectAnswer {
  /** 200 unless said. */
  readonly status?: number;
  readonly contentType: string;
  readonly body: KeptBody;
  /** Headers besides the content type (a problem's retry-after), lower-case names. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The front end's question: a direct answer for this request, or undefined for the app. */
export type DirectRoutes = (
  head: RequestHead,
  meta: RequestMeta,
  body: Uint8Array | null,
) => Answered | undefined;

export interface Answered {
  /** The route's path: its name in the log line and the metrics. */
  readonly route: string;
  /** Never rejects: a failure after the work began is already its problem's answer. */
  readonly answer: DirectAnswer | Promise<DirectAnswer>;
}

/** A query value a direct route reads as it is: no escapes, no `+`, nothing to decode. */
const PLAIN = /^[A-Za-z0-9._~-]+$/;

interface Compiled {
  route: DirectRoute;
  check: ((value: unknown) => boolean) | null;
  checkParams: ((value: unknown) => boolean) | null;
}

const checkOf = (schema: TSchema | undefined) => {
  if (!schema) return null;
  const compiled = TypeCompiler.Compile(schema);
  return (value: unknown) => compiled.Check(value);
};

export function directRoutes(routes: readonly DirectRoute[], auth: AuthDeps): DirectRoutes {
  for (const route of routes)
    if (/[:*]/.test(route.path) && !route.params)
      throw new Error(`a direct route's parameters need their schema: ${route.path}`);
  // Exact paths as they are: the app answers a trailing slash.
  const table = new PathTable<Compiled>(
    routes.map((route) => ({
      method: route.method,
      template: route.path,
      value: { route, check: checkOf(route.query?.schema), checkParams: checkOf(route.params) },
    })),
    { trailingSlash: false },
  );
  return (head, meta, body) => {
    // A GET with a body (the interface's check-tickets example) and a POST without one are the app's.
    if (head.method !== (body === null ? "GET" : "POST")) return undefined;
    const target = head.path;
    const mark = target.indexOf("?");
    const path = mark < 0 ? target : target.slice(0, mark);
    const found = table.find(head.method, path);
    if (!found) return undefined;
    const params = found.params;
    if (found.value.checkParams) {
      for (const name in params) if (!PLAIN.test(params[name]!)) return undefined;
      if (!found.value.checkParams(params)) return undefined;
    }
    const { route, check } = found.value;
    if (route.unless?.some((name) => headerOf(head, name) !== undefined)) return undefined;
    const query = plainQuery(mark < 0 ? "" : target.slice(mark + 1), route.query?.names ?? []);
    if (!query || (check && !check(query))) return undefined;
    let credential: Credential | undefined;
    let answer: DirectAnswer | Promise<DirectAnswer>;
    try {
      const input = route.read(
        query,
        body === null ? null : { bytes: body, contentType: headerOf(head, "content-type") ?? null },
        params,
      );
      if (route.auth) {
        credential = admitBearer(auth, headerOf(head, "authorization"), route.auth, meta);
        if (!credential) return undefined;
      }
      answer = route.answer(input, credential);
    } catch {
      // Whatever fails on the way to a yes (a Problem of the query, the store unreadable while
      // the token or the rows are read) is the app's to answer, as it answers it on every route
      // (503 store-unavailable, its log line): declined, with the request the bucket gave back,
      // so the app's own admission draws on it once.
      if (credential) auth.rateLimits.giveBack(credential);
      meta.credential = undefined;
      return undefined;
    }
    meta.route = route.path;
    if (!(answer instanceof Promise)) return { route: route.path, answer };
    // As the app's error hook answers it: its instance the request's path, without the query.
    return {
      route: route.path,
      answer: answer.catch((error: unknown) => problemContent(failedWith(error, meta, route.path), path)),
    };
  };
}

/**
 * The query as names and values when every pair is `name=value` with a name in `names`, each
 * once, and a plain value; undefined when anything would need the app's own reading.
 */
function plainQuery(text: string, names: readonly string[]): Record<string, string> | undefined {
  const query: Record<string, string> = Object.create(null);
  if (text === "") return query;
  for (const pair of text.split("&")) {
    const eq = pair.indexOf("=");
    if (eq <= 0) return undefined;
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (!names.includes(name) || name in query || !PLAIN.test(value)) return undefined;
    query[name] = value;
  }
  return query;
}
