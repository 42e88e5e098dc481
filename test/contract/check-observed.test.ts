import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawnSync } from "bun";

const SCRIPT = resolve(import.meta.dir, "check-observed.ts");

function check(lines: object[]) {
  const dir = mkdtempSync(join(tmpdir(), "parkd-observed-"));
  try {
    const file = join(dir, "observed.jsonl");
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const r = spawnSync([process.execPath, SCRIPT, file], { stdout: "pipe", stderr: "pipe" });
    return { code: r.exitCode, out: `${r.stdout.toString()}${r.stderr.toString()}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The step ./build.sh runs after the tests: it passes what is declared and fails what is not. */
describe("check-observed", () => {
  test("declared statuses and problem types pass; probes of a test's own routes are ignored", () => {
    const r = check([
      { method: "POST", route: "/api/v1/actions/tickets", status: 409, type: "/problems/plate-mismatch" },
      { method: "GET", route: "/api/v1/parkings", status: 304 },
      { method: "GET", route: "/api/v1/probe/zone/:zone", status: 418 },
    ]);
    expect(r.out).toContain("every observed status and problem type is declared");
    expect(r.code).toBe(0);
  }, 30_000);

  test("a status or a problem type the operation does not declare fails", () => {
    const r = check([
      { method: "GET", route: "/healthz", status: 409, type: "/problems/ticket-exists" },
      { method: "POST", route: "/api/v1/actions/tickets", status: 409, type: "/problems/lot-exists" },
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("GET /healthz answered 409 /problems/ticket-exists, not declared");
    expect(r.out).toContain("POST /api/v1/actions/tickets answered 409 /problems/lot-exists, declared only");
  }, 30_000);
});
