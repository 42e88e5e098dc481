import { Elysia, type TSchema } from "elysia";
import { type Credential, credentialLabel, grants, type Scope } from "../../domain/credentials.ts";
import { log } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import type { TrustedProxies } from "./client-address.ts";
import { trimOws } from "./http1.ts";
import { problemAnswer, problems } from "./problem.ts";
import type { FailureLimiter, RateLimits } from "./rate-limit.ts";
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
  /** `knownOnly`: answer only a name and password verified before, with no password hashing. */
  verifyBasic(
    name: string,
    password: string,
    client: string,
    knownOnly?: boolean,
  ): Promise<Credential | null>;
}

/** Browser sessions (src/modules/web/sessions.ts): a request without Authorization may carry one. */
export interface CookieAuth {
  /** The session's credential, null when there is none; throws a Problem (403) on a CSRF failure. */
  credentialOf(request: Request): Credential | null;
}

export interface AuthDeps {
  credentials: CredentialVerifier;
  limiter: FailureLimiter;
  rateLimits: RateLimits;
  trustedProxies: TrustedProxies;
  sessions?: CookieAuth;
  /** Counts failures, lockouts and 429s for /metrics (ctx.metrics). */
  metrics?: Pick<Metrics, "authFailure" | "authLockout" | "authRateLimited" | "rateLimit">;
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

/**
 * Basic failures from one address across all user names, before the address is locked out: a
 * few times the per-name limit, so one misconfigured terminal does not lock out its neighbours
 * behind the same NAT, while a spray over changing user names stops within a minute.
 */
const BASIC_ADDRESS_LIMIT_FACTOR = 3;

/**
 * The two lockout keys a name and password attempt counts against, with their limits: the
 * address and user name, and the address across all names. Basic on the API and the browser
 * sign-in count against the same keys, so a spray cannot alternate between the two.
 */
export function passwordFailureKeys(
  limiter: FailureLimiter,
  client: string,
  name: string,
): { byUser: [key: string, max: number]; byAddress: [key: string, max: number] } {
  return {
    byUser: [`basic ${client} ${name}`, limiter.limit],
    byAddress: [`basic ${client}`, limiter.limit * BASIC_ADDRESS_LIMIT_FACTOR],
  };
}

/**
 * A refused authentication as its own log event, naming the client and the reason, never what
 * was sent; each of `failures` (lockout keys, with their limit) counts it, and the failure that
 * crosses a limit is logged and counted as a lockout.
 */
function refuse(
  deps: AuthDeps,
  meta: RequestMeta,
  client: string,
  reason: string,
  ...failures: [key: string, max: number][]
): void {
  deps.metrics?.authFailure(reason);
  log("warning", "authentication failed", { client, route: meta.route, reason, requestId: meta.id });
  for (const [key, max] of failures)
    if (deps.limiter.fail(key, max)) {
      deps.metrics?.authLockout();
      log("warning", "address locked out after repeated authentication failures", {
        client,
        scheme: key.split(" ")[0],
        per: key.split(" ").length > 2 ? "address and user name" : "address",
        failures: max,
        retryAfterSeconds: deps.limiter.windowLeft(key),
      });
    }
}

/** 429 instead of 401 while the key is locked out. */
function lockedOut(deps: AuthDeps, key: string, detail: string, max = deps.limiter.limit): void {
  const wait = deps.limiter.blockedFor(key, max);
  if (wait <= 0) return;
  deps.metrics?.authRateLimited();
  throw problems.tooManyRequests(wait, detail);
}

const ADDRESS_LOCKED = "Too many failed authentications from this address; try again later";

/**
 * Who may call, under what limits. A valid Bearer token is always admitted, whatever its address
 * did before: 256 random bits cannot be guessed, so failures from the same address (a
 * misconfigured terminal behind the same proxy) must not stop it. Failed Bearer attempts are
 * counted per client address and, past the limit, a request from it that does not carry a valid
 * credential gets 429 instead of 401. Basic passwords can be guessed: failures count per address
 * and user name, and a locked pair gets 429 before its password is even checked. Every admitted
 * credential then draws on its own token bucket.
 */
export async function authenticate(
  deps: AuthDeps,
  request: Request,
  need: AuthRequirement,
): Promise<Credential> {
  const meta = metaOf(request);
  const challenge = need.basic ? BOTH_CHALLENGES : BEARER_CHALLENGE;
  const client = deps.trustedProxies.client(meta.ip, request.headers.get("x-forwarded-for"));
  const byAddress = `bearer ${client}`;
  const header = request.headers.get("authorization");
  const { scheme, value } = authorizationParts(header);
  let credential: Credential | null = null;
  if (scheme === "basic" && need.basic) {
    const pair = decodeBasic(value);
    const keys = passwordFailureKeys(deps.limiter, client, pair?.name ?? "");
    const [byUser] = keys.byUser;
    const [byAddressAllNames, addressLimit] = keys.byAddress;
    lockedOut(
      deps,
      byUser,
      "Too many failed authentications for this user name from this address; try again later",
    );
    // An address locked out across user names is still served a name and password verified
    // before (its terminals); any other pair gets 429 without a password hash being spent on it.
    const addressLocked = deps.limiter.blockedFor(byAddressAllNames, addressLimit) > 0;
    if (pair)
      credential = await deps.credentials.verifyBasic(pair.name, pair.password, client, addressLocked);
    if (!credential && addressLocked) lockedOut(deps, byAddressAllNames, ADDRESS_LOCKED, addressLimit);
    if (!credential) {
      refuse(deps, meta, client, "unknown, expired or revoked credentials", keys.byUser, keys.byAddress);
      throw problems.unauthorized("The credentials are unknown, expired or revoked", challenge);
    }
  } else if (scheme === "bearer") {
    if (value) credential = deps.credentials.verifyBearer(value);
    if (!credential) {
      lockedOut(deps, byAddress, ADDRESS_LOCKED);
      refuse(deps, meta, client, "unknown, expired or revoked credentials", [byAddress, deps.limiter.limit]);
      throw problems.unauthorized("The credentials are unknown, expired or revoked", challenge);
    }
  } else {
    // Without Authorization, a browser session (the web app) may stand for the credential.
    const session = header ? null : (deps.sessions?.credentialOf(request) ?? null);
    if (session) return authorized(deps, meta, session, need);
    lockedOut(deps, byAddress, ADDRESS_LOCKED);
    const [reason, detail] = !header
      ? ["no credentials", "Credentials are required"]
      : scheme === "basic"
        ? ["basic not accepted here", "This route accepts Bearer tokens only"]
        : ["unsupported scheme", "Unsupported authorization scheme"];
    refuse(deps, meta, client, reason);
    throw problems.unauthorized(detail, challenge);
  }
  return authorized(deps, meta, credential, need);
}

/** The Authorization header's scheme (lower case; "" when none) and its value. */
function authorizationParts(header: string | null | undefined): { scheme: string; value: string } {
  if (!header) return { scheme: "", value: "" };
  const space = header.indexOf(" ");
  if (space <= 0) return { scheme: header.toLowerCase(), value: "" };
  return { scheme: header.slice(0, space).toLowerCase(), value: trimOws(header.slice(space + 1)) };
}

/**
 * What `authenticate` admits without a word, for a route the front end answers directly
 * (direct.ts): a valid Bearer token with the scope and room in its bucket, whose request is then
 * taken from the bucket. Anything else is undefined, with nothing counted or logged: the app then
 * authenticates the request and answers its 401, 403 or 429 as it answers every other.
 */
export function admitBearer(
  deps: AuthDeps,
  header: string | undefined,
  need: AuthRequirement,
  meta: RequestMeta,
): Credential | undefined {
  const { scheme, value } = authorizationParts(header);
  if (scheme !== "bearer" || !value || need.basic || need.strictBody) return undefined;
  const credential = deps.credentials.verifyBearer(value);
  if (!credential || (need.scope && !grants(credential, need.scope))) return undefined;
  if (!deps.rateLimits.admits(credential)) return undefined;
  meta.credential = credentialLabel(credential);
  return credential;
}

/** An admitted credential: its own token bucket, then the scope the route needs. */
function authorized(
  deps: AuthDeps,
  meta: RequestMeta,
  credential: Credential,
  need: AuthRequirement,
): Credential {
  meta.credential = credentialLabel(credential);
  deps.rateLimits.forCredential(credential);
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
  return new Elysia({ name: "auth" }).macro({
    auth: (need: AuthRequirement) => ({
      // What the OpenAPI document publishes for the route (src/modules/operations/openapi.ts).
      detail: openApiSecurity(need),
      async transform({ request, body }) {
        (request as WithCredential)[CREDENTIAL] = await authenticate(deps, request, need);
        if (need.strictBody) rejectUnknownFields(need.strictBody, body);
      },
      resolve({ request }) {
        return { credential: (request as WithCredential)[CREDENTIAL]! };
      },
    }),
  });
}

/**
 * A token in the query string ends up in proxy logs, browser history and Referer headers: it is
 * refused on every route, public ones included, before anything else looks at the request.
 */
export const refuseQueryTokens = new Elysia({ name: "refuse-query-tokens" }).onRequest(({ request }) => {
  const url = request.url;
  const q = url.indexOf("?");
  if (q < 0 || !url.includes("access_token", q)) return;
  if (!new URLSearchParams(url.slice(q + 1)).has("access_token")) return;
  return problemAnswer(
    problems.unauthorized(
      "Tokens in the query string (access_token) are refused: they end up in logs. Send Authorization: Bearer <token>",
      BEARER_CHALLENGE,
    ),
    new URL(url).pathname,
  );
});
