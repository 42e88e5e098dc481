import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import type { Credential } from "../../domain/credentials.ts";
import { type AuthDeps, type AuthRequirement, admitBearer } from "./auth.ts";
import type { RequestHead } from "./http1.ts";
import type { RequestMeta } from "./request-meta.ts";
import type { KeptBody } from "./shared-body.ts";

/**
 * Routes the front end answers from the request's head, without a fetch Request, the framework's
 * handler chain or a Response: the hottest reads (health, an attendant's plate or zone lookup),
 * at nearer the socket's pace. A direct route says only yes, and only in the plain case: a GET
 * with no body, a query of the names it declares, each once and in plain characters, that its
 * schema (the app route's own) accepts, and, when it needs one, a valid Bearer token with the
 * scope and room in its bucket. Every other request, including every refusal, is declined and
 * answered by the app exactly as before: its 401, 403, 422 and 429, its lockouts, its log lines,
 * and its 503 when the store fails on the way to a yes. So each refusal has one mechanism, and a
 * direct answer is the app's answer, byte for byte but its date and request id
 * (test/platform/direct.test.ts and direct-faults.test.ts ask both).
 */
export interface DirectRoute<Input = unknown> {
  /** The path, exact (no template): the app's route of the same GET, its name in logs and metrics. */
  readonly path: string;
  /** The query's names the route reads, with the schema the app's route validates them by. */
  readonly query?: { readonly names: readonly string[]; readonly schema: TSchema };
  /** Bearer with a scope only: Basic and strict bodies are always the app's. */
  readonly auth?: Pick<AuthRequirement, "scope">;
  /** What the route reads of the query; anything thrown here declines (the app answers it). */
  read(query: Readonly<Record<string, string>>): Input;
  /** The answer, once the request is read and admitted; anything thrown here declines too. */
  answer(input: Input, credential: Credential | undefined): DirectAnswer;
}

/** A route for the list a module hands over (its input type is its own business). */
export function directRoute<Input>(route: DirectRoute<Input>): DirectRoute {
  return route as DirectRoute;
}

export interface DirectAnswer {
  readonly contentType: string;
  readonly body: KeptBody;
}

/** The front end's question: a direct answer for this head, or undefined for the app. */
export type DirectRoutes = (head: RequestHead, meta: RequestMeta) => Answered | undefined;

export interface Answered {
  /** The route's path: its name in the log line and the metrics. */
  readonly route: string;
  readonly answer: DirectAnswer;
}

/** A query value a direct route reads as it is: no escapes, no `+`, nothing to decode. */
const PLAIN = /^[A-Za-z0-9._~-]+$/;

interface Compiled {
  route: DirectRoute;
  check: ((value: unknown) => boolean) | null;
}

export function directRoutes(routes: readonly DirectRoute[], auth: AuthDeps): DirectRoutes {
  const byPath = new Map<string, Compiled>();
  for (const route of routes) {
    if (byPath.has(route.path)) throw new Error(`two direct routes for GET ${route.path}`);
    if (/[:*]/.test(route.path)) throw new Error(`a direct route's path is exact: ${route.path}`);
    const compiled = route.query ? TypeCompiler.Compile(route.query.schema) : null;
    byPath.set(route.path, { route, check: compiled ? (v) => compiled.Check(v) : null });
  }
  return (head, meta) => {
    if (head.method !== "GET") return undefined;
    const target = head.path;
    const mark = target.indexOf("?");
    const found = byPath.get(mark < 0 ? target : target.slice(0, mark));
    if (!found) return undefined;
    const { route, check } = found;
    const query = plainQuery(mark < 0 ? "" : target.slice(mark + 1), route.query?.names ?? []);
    if (!query || (check && !check(query))) return undefined;
    let credential: Credential | undefined;
    try {
      const input = route.read(query);
      if (route.auth) {
        // The head keeps the first Authorization sent, as the app reads it (http1.ts).
        const header = head.headers.find(([name]) => name === "authorization")?.[1];
        credential = admitBearer(auth, header, route.auth, meta);
        if (!credential) return undefined;
      }
      const answer = route.answer(input, credential);
      meta.route = route.path;
      return { route: route.path, answer };
    } catch {
      // Whatever fails on the way to a yes (a Problem of the query, the store unreadable while
      // the token or the rows are read) is the app's to answer, as it answers it on every route
      // (503 store-unavailable, its log line): declined, with the request the bucket gave back,
      // so the app's own admission draws on it once.
      if (credential) auth.rateLimits.giveBack(credential);
      meta.credential = undefined;
      return undefined;
    }
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
