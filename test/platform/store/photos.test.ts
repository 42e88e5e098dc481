import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, statfsSync } from "node:fs";
import { join } from "node:path";
import { DiskPhotoFiles, PhotoStorageFull } from "../../../src/platform/store/photos.ts";
import { tempDirs } from "../../support/temp.ts";

const scratch = tempDirs("parkd-photos-");
const HASH = "a".repeat(64);

describe("photo files and the reserve kept for ticket events", () => {
  test("a photo that fits beside the reserve is kept under its hash, with nothing left over", () => {
    const dir = scratch();
    const files = new DiskPhotoFiles(dir, () => 1_048_576);
    files.put(HASH, new Uint8Array([1, 2, 3]));
    expect(files.read(HASH)).toEqual(new Uint8Array([1, 2, 3]));
    expect(readdirSync(join(dir, "photos"))).toEqual([HASH]);
  });

  test("a photo that would take the reserve is refused before a byte is written, naming the reserve", () => {
    const dir = scratch();
    const fs = statfsSync(dir);
    // A reserve of everything free but the photo's size: the photo would eat into it.
    const reserve = fs.bavail * fs.bsize - 2;
    const files = new DiskPhotoFiles(dir, () => reserve);
    let error: unknown;
    try {
      files.put(HASH, new Uint8Array(4096));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PhotoStorageFull);
    expect((error as PhotoStorageFull).reserveBytes).toBe(reserve);
    expect(existsSync(join(dir, "photos"))).toBe(false);
  });
});
