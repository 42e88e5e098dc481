import { bearer } from "@elysiajs/bearer";
import { Elysia, type TSchema } from "elysia";
import { type Credential, credentialLabel, grants, type Scope } from "../../domain/credentials.ts";
import { log } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import { problems } from "./problem.ts";
import type { FailureLimiter } from "./rate-limit.ts";
import { metaOf, type RequestMeta } from "./request-meta.ts";
import { rejectUnknownFields } from "./validation.ts";

export interface AuthRequirement {
  /** Omitted: any valid credential will do. */
  scope?: Scope;
  /** Basic credentials are accepted too (the ticket intake only). */
  basic?: boolean;
  /**
   * Admin writes: refuse body fields this schema does not name (a typo must not silently drop
   * a setting). Checked after the credential, so a caller without rights learns nothing of the
   * body's shape.
   */
  strictBody?: TSchema;
}

/** Whoever keeps the credentials (the admin module's CredentialService) answers these. */
export interface CredentialVerifier {
  verifyBearer(token: string): Credential | null;
  verifyBasic(name: string, password: string): Promise<Credential | null>;
}

export interface AuthDeps {
  credentials: CredentialVerifier;
  limiter: FailureLimiter;
  /** Counts failures and lockouts for /metrics (ctx.metrics). */
  metrics?: Pick<Metrics, "authFailure" | "authLockout" | "authRateLimited">;
}

/**
 * A refused authentication as its own log event, naming the address and the reason, never
 * what was sent; and a lockout when this failure was the one that crossed the limit.
 */
function refuse(deps: AuthDeps, meta: RequestMeta, reason: string, counts: boolean): void {
  deps.metrics?.authFailure(reason);
  log("warning", "authentication failed", { client: meta.ip, route: meta.route, reason, requestId: meta.id });
  if (counts && deps.limiter.fail(meta.ip)) {
    deps.metrics?.authLockout();
    log("warning", "address locked out after repeated authentication failures", {
      client: meta.ip,
      failures: deps.limiter.limit,
      retryAfterSeconds: deps.limiter.windowLeft(meta.ip),
    });
  }
}

const BEARER_CHALLENGE = 'Bearer realm="parking"';
const BOTH_CHALLENGES = 'Bearer realm="parking", Basic realm="parking"';

function decodeBasic(value: string): { name: string; password: string } | null {
  let text: string;
  try {
    text = Buffer.from(value, "base64").toString("utf8");
  } catch {
    return null;
  }
  const colon = text.indexOf(":");
  if (colon <= 0) return null;
  return { name: text.slice(0, colon), password: text.slice(colon + 1) };
}

export async function authenticate(
  deps: AuthDeps,
  request: Request,
  bearerToken: string | undefined,
  need: AuthRequirement,
): Promise<Credential> {
  const meta = metaOf(request);
  const wait = deps.limiter.blockedFor(meta.ip);
  if (wait > 0) {
    deps.metrics?.authRateLimited();
    throw problems.tooManyRequests(wait);
  }
  const challenge = need.basic ? BOTH_CHALLENGES : BEARER_CHALLENGE;
  const header = request.headers.get("authorization")?.trim();
  let credential: Credential | null = null;
  if (!header && !bearerToken) {
    refuse(deps, meta, "no credentials", false);
    throw problems.unauthorized("Credentials are required", challenge);
  }
  const space = header?.indexOf(" ") ?? -1;
  const scheme = header && space > 0 ? header.slice(0, space).toLowerCase() : "";
  const value = header && space > 0 ? header.slice(space + 1).trim() : "";
  if (scheme === "basic") {
    if (!need.basic) {
      refuse(deps, meta, "basic not accepted here", false);
      throw problems.unauthorized("This route accepts Bearer tokens only", challenge);
    }
    const pair = decodeBasic(value);
    if (pair) credential = await deps.credentials.verifyBasic(pair.name, pair.password);
  } else if (scheme === "bearer" || bearerToken) {
    const token = scheme === "bearer" ? value : bearerToken!;
    if (token) credential = deps.credentials.verifyBearer(token);
  } else {
    refuse(deps, meta, "unsupported scheme", false);
    throw problems.unauthorized(`Unsupported authorization scheme`, challenge);
  }
  if (!credential) {
    refuse(deps, meta, "unknown, expired or revoked credentials", true);
    throw problems.unauthorized("The credentials are unknown, expired or revoked", challenge);
  }
  meta.credential = credentialLabel(credential);
  if (need.scope && !grants(credential, need.scope))
    throw problems.forbidden(`This credential lacks the scope ${need.scope}`, need.scope);
  return credential;
}

/** `security` and `x-scope` of the route's OpenAPI operation. */
function openApiSecurity(need: AuthRequirement): { security: Record<string, string[]>[] } {
  const security: Record<string, string[]>[] = [{ bearer: [] }];
  if (need.basic) security.push({ basic: [] });
  return need.scope
    ? ({ security, "x-scope": need.scope } as { security: Record<string, string[]>[] })
    : { security };
}

const CREDENTIAL = Symbol("parkd.credential");
type WithCredential = Request & { [CREDENTIAL]?: Credential };

/**
 * `{ auth: { scope } }` on a route resolves `credential` for its handler, or answers
 * 401/403/429 as problem+json before the handler runs. Authentication happens in `transform`,
 * before Elysia validates the body, so a caller without credentials gets 401 whatever it sent;
 * the same hook sees the body before Elysia's normalization strips unknown fields.
 */
export function authPlugin(deps: AuthDeps) {
  return new Elysia({ name: "auth" })
    .use(bearer({ extract: { header: "Bearer", query: "access_token", body: "" } }))
    .macro({
      auth: (need: AuthRequirement) => ({
        // What the OpenAPI document publishes for the route (src/modules/operations/openapi.ts).
        detail: openApiSecurity(need),
        async transform({ request, bearer: token, body }) {
          (request as WithCredential)[CREDENTIAL] = await authenticate(deps, request, token, need);
          if (need.strictBody) rejectUnknownFields(need.strictBody, body);
        },
        resolve({ request }) {
          return { credential: (request as WithCredential)[CREDENTIAL]! };
        },
      }),
    });
}
