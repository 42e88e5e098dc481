import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serveOptions } from "../../../src/cli/serve.ts";

const unit = readFileSync(join(import.meta.dir, "../../../deploy/parkd.service"), "utf8");
const settings = new Map<string, string>();
for (const line of unit.split("\n")) {
  const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
  if (m) settings.set(m[1]!, m[2]!);
}

describe("deploy/parkd.service", () => {
  test("starts serve with flags serve knows, on a data folder it may write", () => {
    const exec = settings.get("ExecStart")!.split(/\s+/);
    expect(exec[1]).toBe("serve");
    const known = new Set(serveOptions.map((o) => `--${o.name}`));
    for (const word of exec.slice(2).filter((w) => w.startsWith("--"))) expect(known.has(word)).toBe(true);
    const dataDir = exec[exec.indexOf("--data-dir") + 1]!;
    expect(dataDir).toStartWith("/var/lib/parkd");
    expect(settings.get("ReadWritePaths")).toBe(dataDir);
    expect(settings.get("StateDirectory")).toBe("parkd");
    // The engine sizes its collector from the box's memory, or from MemoryMax= when an operator
    // sets one (docs/operations.md "Memory"): the unit forces no size of its own.
    expect(unit).not.toContain("BUN_JSC_");
    // systemctl reload: serve reads its certificate again on SIGHUP.
    expect(settings.get("ExecReload")).toBe("/bin/kill -HUP $MAINPID");
  });

  test("runs as its own user, restarts on failure, and is hardened", () => {
    expect(settings.get("User")).toBe("parkd");
    expect(settings.get("Restart")).toBe("on-failure");
    for (const [k, v] of [
      ["NoNewPrivileges", "yes"],
      ["ProtectSystem", "strict"],
      ["ProtectHome", "yes"],
      ["PrivateTmp", "yes"],
      ["CapabilityBoundingSet", ""],
      ["KillSignal", "SIGTERM"],
    ] as const)
      expect(settings.get(k)).toBe(v);
    // The JIT needs writable+executable memory.
    expect(settings.has("MemoryDenyWriteExecute")).toBe(false);
  });

  test("lets journald keep a busy box's lines: above its default 10,000 in 30 s", () => {
    expect(settings.get("LogRateLimitIntervalSec")).toBe("30s");
    expect(Number(settings.get("LogRateLimitBurst"))).toBeGreaterThanOrEqual(30 * 1000);
  });
});
