import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { forgetPagesOf } from "../../../src/platform/store/page-cache.ts";
import { tempDirs } from "../../support/temp.ts";

const newDir = tempDirs("parkd-page-cache-");

test("a file's cached pages are dropped through the C library on Linux; a missing file is said not to be", () => {
  const file = join(newDir(), "photo");
  writeFileSync(file, new Uint8Array(64 * 1024).fill(7));
  expect(forgetPagesOf(file)).toBe(process.platform === "linux");
  expect(forgetPagesOf(join(newDir(), "none"))).toBe(false);
});
