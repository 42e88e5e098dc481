import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { closeSync, fstatSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  formatLine,
  isJournalStream,
  LEVELS,
  logLine,
  logRequest,
  maskPlate,
  setLogging,
  setRequestLogging,
} from "../../src/platform/log.ts";
import { examples } from "../modules/intake/examples.ts";
import { call, testApp } from "../support/app.ts";

describe("the log line", () => {
  test("time, level and msg first, then the fields", () => {
    const line = formatLine("warning", "authentication failed", {
      client: "10.0.0.7",
      reason: "no credentials",
    });
    expect(line.endsWith("\n")).toBe(true);
    const parsed = JSON.parse(line);
    expect(Object.keys(parsed)).toEqual(["time", "level", "msg", "client", "reason"]);
    expect(parsed.level).toBe("warning");
    expect(Date.parse(parsed.time)).not.toBeNaN();
    expect(Object.keys(JSON.parse(formatLine("notice", "stopped")))).toEqual(["time", "level", "msg"]);
  });

  test("levels are the syslog names, with journald's priorities", () => {
    expect(LEVELS).toEqual({ debug: 7, info: 6, notice: 5, warning: 4, error: 3, critical: 2 });
  });

  test("a stream is the journal's only when JOURNAL_STREAM names that very file", () => {
    const dir = mkdtempSync(join(tmpdir(), "parkd-log-"));
    const fd = openSync(join(dir, "stream"), "w");
    const other = openSync(join(dir, "other"), "w");
    try {
      const st = fstatSync(fd);
      const env = `${st.dev}:${st.ino}`;
      expect(isJournalStream(fd, env)).toBe(true);
      expect(isJournalStream(other, env)).toBe(false);
      expect(isJournalStream(fd, undefined)).toBe(false);
      expect(isJournalStream(fd, "garbage")).toBe(false);
    } finally {
      closeSync(fd);
      closeSync(other);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("plates keep two characters", () => {
    expect(maskPlate("ABC123")).toBe("AB****");
    expect(maskPlate("A")).toBe("**");
  });
});

/** What the log writes to stdout and stderr while `run` runs (and the turn after, when request lines flush). */
async function captured(run: () => unknown): Promise<{ out: string; err: string }> {
  let out = "";
  let err = "";
  const o = spyOn(process.stdout, "write").mockImplementation((chunk: unknown) => {
    out += String(chunk);
    return true;
  });
  const e = spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => {
    err += String(chunk);
    return true;
  });
  try {
    await run();
    await new Promise((r) => setImmediate(r));
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
  return { out, err };
}

const levelKeys = (line: string) => line.match(/"level":/g)?.length ?? 0;

describe("one level per line", () => {
  beforeEach(() => setLogging(true));
  afterEach(() => {
    setLogging(false);
    setRequestLogging(false);
  });

  test("logLine writes the level it is given, once", async () => {
    const { err } = await captured(() =>
      logLine({
        level: "warning",
        msg: "last-used times not written; kept for the next try",
        error: "SQLITE_FULL",
      }),
    );
    expect(levelKeys(err)).toBe(1);
    expect(JSON.parse(err)).toMatchObject({ level: "warning", error: "SQLITE_FULL" });
    const plain = await captured(() => logLine({ msg: "retention", deleted: 3 }));
    expect(levelKeys(plain.err)).toBe(1);
    expect(JSON.parse(plain.err).level).toBe("info");
  });

  test("a field named like the line's own keys cannot write them twice", () => {
    const line = formatLine("warning", "x", {
      level: "info",
      time: "then",
      msg: "other",
      client: "10.0.0.7",
    });
    expect(levelKeys(line)).toBe(1);
    expect(line.match(/"time":/g)!.length).toBe(1);
    expect(line.match(/"msg":/g)!.length).toBe(1);
    expect(JSON.parse(line)).toMatchObject({ level: "warning", msg: "x", client: "10.0.0.7" });
  });
});

describe("request lines", () => {
  beforeEach(() => setLogging(true));
  afterEach(() => {
    setLogging(false);
    setRequestLogging(false);
  });
  const request = (status: number, reason?: string) => ({
    method: "GET",
    route: "/api/v1/parkings",
    status,
    ms: 0.4,
    client: "10.0.0.7",
    requestId: "r1",
    ...(reason ? { reason } : {}),
  });

  test("off by default: no line for an answered request; a 5xx always gets one, as an error with its reason", async () => {
    const { out } = await captured(() => {
      logRequest(request(200));
      logRequest(request(404));
      logRequest(request(503, "store-unavailable: SQLITE_FULL"));
    });
    const lines = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      expect.objectContaining({
        level: "error",
        msg: "request",
        status: 503,
        reason: "store-unavailable: SQLITE_FULL",
      }),
    ]);
  });

  test("on (serve --log-requests): one line per request at debug", async () => {
    setRequestLogging(true);
    const { out } = await captured(() => {
      for (let i = 0; i < 5; i++) logRequest(request(200));
      logRequest(request(500, "internal: Error: boom"));
    });
    const lines = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.level, l.status])).toEqual([...Array(5).fill(["debug", 200]), ["error", 500]]);
    for (const l of out.trim().split("\n")) expect(levelKeys(l)).toBe(1);
  });

  test("a 503 of a store that cannot write says why in its line", async () => {
    const s = testApp();
    const writer = s.token("tickets:write");
    s.ctx.store.sqlite.run("PRAGMA query_only = ON");
    const { out } = await captured(() =>
      call(s.app, "POST", "/api/v1/actions/tickets", { token: writer, body: examples.TicketCreated }),
    );
    const line = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((l) => l.status === 503);
    expect(line).toMatchObject({ level: "error", route: "/api/v1/actions/tickets" });
    expect(line.reason).toStartWith("store-unavailable");
  });
});
