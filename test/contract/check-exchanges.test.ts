import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawnSync } from "bun";
import type { Exchange } from "../support/observed.ts";

const SCRIPT = resolve(import.meta.dir, "check-exchanges.ts");

function check(exchanges: Exchange[]) {
  const dir = mkdtempSync(join(tmpdir(), "parkd-exchanges-"));
  try {
    const file = join(dir, "exchanges.jsonl");
    writeFileSync(file, `${exchanges.map((x) => JSON.stringify(x)).join("\n")}\n`);
    const r = spawnSync([process.execPath, SCRIPT, file], { stdout: "pipe", stderr: "pipe" });
    return { code: r.exitCode, out: `${r.stdout.toString()}${r.stderr.toString()}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const JSON_ANSWER = { "content-type": "application/json" };
const lookup = (url: string, status: number, body: unknown): Exchange => ({
  method: "GET",
  route: "/api/v1/attendants/check-tickets",
  status,
  request: { method: "GET", url: `http://localhost${url}`, headers: { authorization: "Bearer x" } },
  response: { headers: JSON_ANSWER, body: JSON.stringify(body) },
});
const ticket = {
  registration_number: "ABC123",
  zone: 1234,
  active: true,
  start_at: "2026-06-15T08:00:00.000000Z",
  end_at: null,
  note: "",
};

/** The step ./build.sh runs after the tests, with Prism's validator: both ways. */
describe("check-exchanges", () => {
  test("answers the document describes, to requests it accepts, pass", () => {
    const r = check([lookup("/api/v1/attendants/check-tickets?zone=1234", 200, [ticket])]);
    expect(r.out).toContain("no violation");
    expect(r.code).toBe(0);
  }, 30_000);

  test("an answer off its schema fails, and so does a request the box took that the document refuses", () => {
    const r = check([
      lookup("/api/v1/attendants/check-tickets?zone=1234", 200, [{ ...ticket, start_at: "yesterday" }]),
      lookup("/api/v1/attendants/check-tickets?zone=abc", 200, []),
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('start_at must match format "date-time"');
    expect(r.out).toContain("zone");
    expect(r.out).toContain("(the box accepted it)");
  }, 30_000);

  test("a request the box refused is not held against the document", () => {
    const r = check([
      lookup("/api/v1/attendants/check-tickets?zone=abc", 400, {
        type: "/problems/validation",
        title: "Request failed validation",
        status: 400,
        detail: "/zone: Expected a zone number from 0 to 2147483647 (an integer or a string of digits)",
      }),
    ]);
    expect(r.out).toContain("no violation");
    expect(r.code).toBe(0);
  }, 30_000);
});
