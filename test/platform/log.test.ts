import { describe, expect, test } from "bun:test";
import { closeSync, fstatSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatLine, isJournalStream, LEVELS, maskPlate } from "../../src/platform/log.ts";

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
