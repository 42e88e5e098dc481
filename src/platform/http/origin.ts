import { refuse } from "../../domain/errors.ts";
import { PROBLEMS } from "../../domain/problems.ts";
import { trimOws } from "./http1.ts";
import { problems } from "./problem.ts";

/** The request's own origin's host (`name:port`, default ports left out), from its Host header. */
function ownHost(request: Request): string | null {
  const host = request.headers.get("host");
  if (!host) return null;
  try {
    return new URL(`${new URL(request.url).protocol}//${host}`).host;
  } catch {
    return null;
  }
}

/**
 * Whether a browser says the request comes from a page of this very origin: `Sec-Fetch-Site:
 * same-origin`, or an `Origin` naming this scheme, host and port. A request without either
 * (curl, a terminal) is not a browser's and is not same-origin either.
 */
export function isSameOrigin(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin";
  const origin = request.headers.get("origin");
  if (origin === null || origin === "null") return false;
  try {
    const o = new URL(origin);
    return o.protocol === new URL(request.url).protocol && o.host === ownHost(request);
  } catch {
    return false;
  }
}

export const crossOriginRefused = () => refuse("cross-origin", PROBLEMS["cross-origin"].example);

/**
 * Refuses what a browser says comes from another origin (another site, or another port or
 * scheme of this host). Requests that say nothing of their origin (not a browser's) pass.
 */
export function refuseCrossOrigin(request: Request): void {
  const site = request.headers.get("sec-fetch-site");
  const origin = request.headers.get("origin");
  if (site === null && origin === null) return;
  if (site === "none") return; // typed or bookmarked by the user
  if (!isSameOrigin(request)) throw crossOriginRefused();
}

/** 415 unless the body is declared `application/json` (a missing type is refused too). */
export function requireJson(request: Request): void {
  const type = request.headers.get("content-type");
  const essence = type === null ? "" : trimOws(type.split(";")[0]!).toLowerCase();
  if (essence !== "application/json") throw problems.unsupportedMediaType(type ?? "(none)");
}
