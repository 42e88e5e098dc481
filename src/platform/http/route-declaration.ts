import type { TSchema } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Scope } from "../../domain/credentials.ts";
import type { ProblemType } from "../../domain/problems.ts";
import type { OperationContract } from "./api-contract.ts";
import type { DirectAnswering, DirectRoute } from "./direct.ts";

/**
 * A route is declared once, in its module's Elysia chain: method, path template, schemas, `auth`
 * (credential and scope), `rateLimit`, and through this plugin what else the box makes of it:
 * `operation` (its words for the document and the problems it answers beyond its classes),
 * `direct` (the front end may answer its plain case itself), `rawBody` (its body is raw bytes up
 * to its own limit). Each option marks the route's `detail`; the composition root reads the
 * marks back from the app's route list (`declarationsOf`), and the document, the direct answers,
 * the front end's body limits and the problem lists are all made from there. Nothing else names
 * a route by its path.
 */

const OPERATION = "x-parkd-operation";
const DIRECT = "x-parkd-direct";
const RAW_BODY = "x-parkd-raw-body";

/** A detail field of a declaration's own, never published in the document. */
export const isDeclarationMark = (key: string) => key.startsWith("x-parkd-");

/** A route whose body is raw bytes (a photo) rather than JSON, up to its own limit in bytes. */
export interface RawBody {
  readonly limit: number;
}

/** Elysia's type for `detail` names no extension field; the marks are ours. */
type Marked = Record<string, unknown>;

export const routeDeclaration = new Elysia({ name: "route-declaration" }).macro({
  operation: (operation: OperationContract) => ({ detail: { [OPERATION]: operation } as Marked }),
  direct: (direct: DirectAnswering) => ({ detail: { [DIRECT]: direct } as Marked }),
  rawBody: (raw: RawBody) => ({ detail: { [RAW_BODY]: raw } as Marked }),
});

/** A route as the app lists it (Elysia's `app.routes`). */
export interface ListedRoute {
  method: string;
  path: string;
  hooks?: unknown;
}

/** What one route declares, read back from the app's route list. */
export interface Declaration {
  readonly method: string;
  readonly path: string;
  /** `"METHOD /path/:param"`, its name in the document's checks and in error messages. */
  readonly key: string;
  readonly operation: OperationContract | undefined;
  readonly problems: readonly ProblemType[];
  readonly direct: DirectAnswering | undefined;
  readonly rawBody: RawBody | undefined;
  /** Whether it takes a credential (`auth`), and the scope it asks for: the auth macro's marks. */
  readonly secured: boolean;
  readonly scope: Scope | undefined;
  readonly params: unknown;
  readonly query: unknown;
}

const detailOf = (route: ListedRoute): Marked =>
  ((route.hooks as { detail?: Marked } | undefined)?.detail ?? {}) as Marked;

export function declarationOf(route: ListedRoute): Declaration {
  const detail = detailOf(route);
  const hooks = (route.hooks ?? {}) as Record<string, unknown>;
  const operation = detail[OPERATION] as OperationContract | undefined;
  const method = route.method.toUpperCase();
  return {
    method,
    path: route.path,
    key: `${method} ${route.path}`,
    operation,
    problems: operation?.problems ?? [],
    direct: detail[DIRECT] as DirectAnswering | undefined,
    rawBody: detail[RAW_BODY] as RawBody | undefined,
    secured: Array.isArray(detail.security) && detail.security.length > 0,
    scope: typeof detail["x-scope"] === "string" ? (detail["x-scope"] as Scope) : undefined,
    params: hooks.params,
    query: hooks.query,
  };
}

/** Every route's declaration; an operation id given to two routes is a mistake. */
export function declarationsOf(routes: readonly ListedRoute[]): Declaration[] {
  const out = routes.map(declarationOf);
  const ids = new Map<string, string>();
  for (const d of out) {
    const id = d.operation?.operationId;
    if (!id) continue;
    const other = ids.get(id);
    if (other && other !== d.key) throw new Error(`operation ${id} is declared by ${other} and ${d.key}`);
    ids.set(id, d.key);
  }
  return out;
}

const isSchema = (value: unknown): value is TSchema => typeof value === "object" && value !== null;

/**
 * The routes the front end may answer itself, each with what its declaration says: its method and
 * path, its parameter's and query's schemas (the query's names are the schema's), its scope.
 */
export function directRoutesOf(declarations: readonly Declaration[]): DirectRoute[] {
  return declarations.flatMap((d): DirectRoute[] => {
    if (!d.direct) return [];
    if (d.method !== "GET" && d.method !== "POST")
      throw new Error(`a direct route is a GET or a POST: ${d.key}`);
    const query = isSchema(d.query)
      ? { names: Object.keys((d.query as { properties?: object }).properties ?? {}), schema: d.query }
      : undefined;
    return [
      {
        ...d.direct,
        method: d.method,
        path: d.path,
        ...(isSchema(d.params) ? { params: d.params } : {}),
        ...(query ? { query } : {}),
        ...(d.secured ? { auth: d.scope ? { scope: d.scope } : {} } : {}),
      },
    ];
  });
}
