import { composeBox } from "../../src/app.ts";
import { type AppConfig, type AppContext, createContext } from "../../src/context.ts";
import type { Scope } from "../../src/domain/credentials.ts";
import { openMemoryStore } from "../../src/platform/store/db.ts";
import { observeStatuses } from "./observed.ts";

export interface TestClock {
  now: () => number;
  set(ms: number | string): void;
  advance(ms: number): void;
}

export function testClock(start: number | string = "2026-06-15T10:00:00Z"): TestClock {
  let t = typeof start === "string" ? Date.parse(start) : start;
  return {
    now: () => t,
    set: (ms) => {
      t = typeof ms === "string" ? Date.parse(ms) : ms;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

/**
 * Tests send bursts far beyond any site's rate, mostly on a clock that does not move: the
 * per-credential and per-address rate limits are off unless a test turns them on
 * (test/platform/auth-limits.test.ts, test/platform/public-rate-limit.test.ts).
 */
export function testContext(config: Partial<AppConfig> = {}, now?: () => number): AppContext {
  return createContext(
    openMemoryStore(),
    { timezone: "Europe/Stockholm", rateLimitPerSecond: 0, publicRateLimitPerSecond: 0, ...config },
    now,
  );
}

/** A fresh app on an in-memory store, with helpers to mint credentials. */
export function testApp(config: Partial<AppConfig> = {}, clock?: TestClock) {
  const ctx = testContext(config, clock?.now);
  const box = composeBox(ctx);
  const app = observeStatuses(box.app);
  const { credentials } = box;
  let n = 0;
  return {
    ctx,
    app,
    auth: box.auth,
    credentials,
    sessions: box.sessions,
    lookupRecorder: box.lookupRecorder,
    direct: box.direct,
    office: box.office,
    contracts: box.contracts,
    token(...scopes: Scope[]): string {
      return credentials.createToken({ name: `test-${++n}`, scopes }).token;
    },
    async user(name: string, password: string, ...scopes: Scope[]): Promise<string> {
      await credentials.createUser({ name, scopes, password });
      return `Basic ${Buffer.from(`${name}:${password}`).toString("base64")}`;
    },
  };
}

export interface CallOptions {
  /** A value is sent as JSON; a string is sent as it is. */
  body?: unknown;
  token?: string;
  authorization?: string;
  headers?: Record<string, string>;
}

export function request(method: string, path: string, opts: CallOptions = {}): Request {
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  if (opts.authorization) headers.set("authorization", opts.authorization);
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return new Request(`http://localhost${path}`, { method, headers, body });
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert on them
  json: any;
}

export async function call(
  app: { handle(r: Request): Promise<Response> | Response },
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<CallResult> {
  const res = await app.handle(request(method, path, opts));
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Asserts the answer is problem+json of the given status and kind; returns its body. */
export function expectProblem(res: CallResult, status: number, kind: string) {
  const ct = res.headers.get("content-type") ?? "";
  if (
    res.status !== status ||
    !ct.startsWith("application/problem+json") ||
    res.json?.type !== `/problems/${kind}`
  ) {
    throw new Error(
      `expected ${status} /problems/${kind} as problem+json, got ${res.status} ${ct} ${res.text}`,
    );
  }
  if (res.json.status !== status || typeof res.json.title !== "string" || typeof res.json.detail !== "string")
    throw new Error(`problem body lacks status/title/detail: ${res.text}`);
  return res.json as {
    type: string;
    title: string;
    status: number;
    detail: string;
    errors?: { pointer: string; message: string }[];
  };
}

/** The box's verdict for a plate in a zone (200, checked against the Verdict shape by the caller if it wants). */
export async function askVerdict(
  app: { handle(r: Request): Promise<Response> | Response },
  token: string,
  plate: string,
  zone: number,
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert on them
): Promise<any> {
  const res = await call(
    app,
    "GET",
    `/api/v1/attendants/verdict?registration_number=${encodeURIComponent(plate)}&zone=${zone}`,
    { token },
  );
  if (res.status !== 200) throw new Error(`verdict: expected 200, got ${res.status} ${res.text}`);
  return res.json;
}
