import { trimOws } from "./http1.ts";
import { bodyResponse, type KeptBody, keptBody } from "./shared-body.ts";

/**
 * Answers with an ETag: 304 with no body when `If-None-Match` names the tag (strong or weak)
 * or `*`, else the body. Handhelds polling the zone list and kiosks polling the lot list pay
 * for a body only when it changed.
 */
/** A strong ETag for a body: the same bytes always give the same tag. */
export function etagOf(body: string | Uint8Array): string {
  return `"${Bun.hash(body).toString(36)}"`;
}

/** A JSON body ready to send (kept: large ones as their bytes), with its strong ETag. */
export interface Rendered {
  body: KeptBody;
  etag: string;
}

/** `value` as JSON with its ETag: reads answer it, and writes answer the tag a read will give. */
export function renderJson(value: unknown): Rendered {
  const text = JSON.stringify(value);
  return { body: keptBody(text), etag: etagOf(text) };
}

export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((h) => {
    const tag = trimOws(h);
    return tag === "*" || tag === etag || tag === `W/${etag}`;
  });
}

/** What an answer with an ETag carries, with its body or as a 304: revalidated on every use. */
export function etagHeaders(etag: string): Record<string, string> {
  return { etag, "cache-control": "no-cache" };
}
/** The content type of a JSON body answered with its ETag. */
export const ETAGGED_JSON = "application/json; charset=utf-8";

export function withEtag(
  request: Request,
  etag: string,
  body: KeptBody,
  headers: Record<string, string> = {},
): Response {
  const common = { ...etagHeaders(etag), ...headers };
  if (matchesEtag(request.headers.get("if-none-match"), etag))
    return new Response(null, { status: 304, headers: common });
  const answered = { "content-type": ETAGGED_JSON, ...common };
  return bodyResponse(body, answered);
}

/**
 * Whether a write may go ahead under `If-Match` (RFC 9110 §13.1.1): no header, `*` (the record
 * exists, or the caller would have had a 404), or a list naming the current ETag. Comparison is
 * strong: a weak tag never matches.
 */
export function ifMatchHolds(ifMatch: string | null | undefined, etag: string): boolean {
  if (ifMatch === null || ifMatch === undefined) return true;
  return ifMatch.split(",").some((h) => {
    const tag = h.trim();
    return tag === "*" || tag === etag;
  });
}
