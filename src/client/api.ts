/** The API as the pages call it: same origin, the session cookie, the csrf header on writes. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  errors?: { pointer: string; message: string }[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
  }
}

/**
 * The network is down or the box unreachable (as opposed to an answer saying no); `silent`: the
 * box took the request but gave no answer in time (frozen, or the Wi-Fi holds it).
 */
export class Offline extends Error {
  constructor(readonly silent = false) {
    super(silent ? "not answering" : "offline");
  }
}

let csrf = "";
let unauthorized: (() => void) | undefined;

/**
 * Called on any 401 but sign-in's own (a wrong token there is not a lost session): the box no
 * longer knows this session, whichever page asked.
 */
export function onUnauthorized(f: () => void): void {
  unauthorized = f;
}
export function setCsrf(value: string): void {
  csrf = value;
}

/** `timeoutMs`: no whole answer by then counts as a box that is not answering (Offline, silent). */
export async function api<T>(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<T> {
  return (await versioned<T>(method, path, body, null, timeoutMs)).data;
}

/**
 * As api(), with the record's version: the answer's ETag, and `ifMatch` sent as If-Match so that
 * a write made against an older version is refused (412) instead of undoing someone's change.
 */
export async function versioned<T>(
  method: string,
  path: string,
  body?: unknown,
  ifMatch?: string | null,
  timeoutMs?: number,
): Promise<{ data: T; etag: string | null }> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (method !== "GET" && csrf) headers["x-csrf-token"] = csrf;
  if (ifMatch) headers["if-match"] = ifMatch;
  let res: Response;
  let text: string;
  const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
      signal,
    });
    if (res.status === 204) return { data: undefined as T, etag: null };
    text = await res.text();
  } catch {
    throw new Offline(signal?.aborted === true);
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (res.status === 401 && path !== "/api/v1/session") unauthorized?.();
  if (!res.ok) throw new ApiError(res.status, (json as Problem) ?? { detail: text });
  return { data: json as T, etag: res.headers.get("etag") };
}

export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** A body of bytes (a photo) posted as itself, with its type; answers and errors as api(). */
export async function postBytes<T>(path: string, body: Blob, timeoutMs: number): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", "content-type": body.type };
  if (csrf) headers["x-csrf-token"] = csrf;
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  let text: string;
  try {
    res = await fetch(path, {
      method: "POST",
      headers,
      body,
      credentials: "same-origin",
      cache: "no-store",
      signal,
    });
    text = await res.text();
  } catch {
    throw new Offline(signal.aborted);
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (res.status === 401) unauthorized?.();
  if (!res.ok) throw new ApiError(res.status, (json as Problem) ?? { detail: text });
  return json as T;
}
