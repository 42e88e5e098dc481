import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CONDITIONS, fixFor } from "../../../src/modules/operations/conditions.ts";

/**
 * The one list of conditions serve refuses, repairs or /readyz reports: each has a case in
 * doctor's fault tables on the built binary (so a condition added without doctor finding it,
 * or serve changing what it does, fails there), and words for doctor and /readyz alike.
 */
const FAULT_TESTS = [
  "test/e2e/doctor-faults.test.ts",
  "test/e2e/doctor-office.test.ts",
  "test/e2e/central-tls.test.ts",
  "test/e2e/fault.test.ts",
  "test/cli/doctor-rules.test.ts",
].map((f) => readFileSync(join(import.meta.dir, "../../..", f), "utf8"));

describe("the conditions doctor and /readyz share", () => {
  test.each(Object.keys(CONDITIONS))("%s has a case in a fault table", (id) => {
    expect(FAULT_TESTS.some((text) => text.includes(`"${id}"`))).toBe(true);
  });

  test.each(Object.entries(CONDITIONS))("%s says what serve does and how to fix it", (id, c) => {
    expect(c.serve.length).toBeGreaterThan(10);
    const fix = fixFor(id as keyof typeof CONDITIONS, {
      dataDir: "/var/lib/parkd",
      file: "/x",
      site: "north",
    });
    expect(fix.length).toBeGreaterThan(10);
    // No fix promises what serve no longer does (an earlier text said a self-signed one is made).
    expect(fix).not.toContain("new self-signed certificate");
  });
});
