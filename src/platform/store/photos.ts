import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statfsSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { photoFits } from "../../domain/disk-room.ts";
import { forgetPagesOf } from "./page-cache.ts";

/**
 * The notices' photo files, beside the store: `<data dir>/photos/<sha256>`, one file per distinct
 * photo. The store keeps which notice holds which hash (notice_photos); a file is written before
 * its record, so a record never names a missing file.
 */
export interface PhotoFiles {
  /** Keeps the bytes under their hash; throws PhotoStorageFull when the disk cannot take them. */
  put(hash: string, bytes: Uint8Array): void;
  read(hash: string, opts?: ReadOptions): Uint8Array | null;
  has(hash: string): boolean;
  remove(hash: string): void;
  /**
   * What is in the folder that no notice names (`named`: every hash the notices hold), last
   * written before `before`: whole photos a purge killed between its commit and its removals
   * left, and `.part` files of a write killed half-way. Younger files may be a photo whose record
   * is being written.
   */
  leftovers(named: ReadonlySet<string>, before: number): { photos: string[]; unfinished: string[] };
  removeUnfinished(name: string): void;
}

export interface ReadOptions {
  /** Read for a copy (a backup) and not again soon: its pages are not kept in the page cache. */
  once?: boolean;
}

/**
 * The disk (or the folder) cannot take the photo: full, over quota or read-only; or the photo
 * would take the space kept for ticket events (reserveBytes set).
 */
export class PhotoStorageFull extends Error {
  constructor(
    message: string,
    readonly reserveBytes?: number,
  ) {
    super(message);
  }
}

const FULL = new Set(["ENOSPC", "EDQUOT", "EROFS"]);
const HASH = /^[0-9a-f]{64}$/;
/** A photo being written: put()'s temporary name. */
const UNFINISHED = /^[0-9a-f]{64}\.part$/;

function named(hash: string): string {
  // Only ever a hash we computed; a path made of anything else would be a bug.
  if (!HASH.test(hash)) throw new Error("not a photo hash");
  return hash;
}

export const PHOTO_FOLDER = "photos";

export class DiskPhotoFiles implements PhotoFiles {
  readonly dir: string;

  constructor(
    private readonly dataDir: string,
    /** What the disk keeps free for ticket events (0: nothing kept). */
    private readonly reserve: () => number = () => 0,
  ) {
    this.dir = join(dataDir, PHOTO_FOLDER);
  }

  put(hash: string, bytes: Uint8Array): void {
    const reserve = this.reserve();
    if (reserve > 0) {
      const fs = statfsSync(this.dataDir);
      if (!photoFits({ freeBytes: fs.bavail * fs.bsize }, bytes.length, reserve))
        throw new PhotoStorageFull("the photo would take the space kept for ticket events", reserve);
    }
    const path = join(this.dir, named(hash));
    const temp = `${path}.part`;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const fd = openSync(temp, "w", 0o600);
      try {
        let at = 0;
        while (at < bytes.length) at += writeSync(fd, bytes, at);
        // On disk before its record commits: an acknowledged photo survives a power cut.
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, path);
    } catch (e) {
      rmSync(temp, { force: true });
      if (FULL.has(String((e as { code?: unknown }).code)))
        throw new PhotoStorageFull(String((e as Error).message));
      throw e;
    }
  }

  read(hash: string, opts: ReadOptions = {}): Uint8Array | null {
    const path = join(this.dir, named(hash));
    try {
      const bytes = readFileSync(path);
      if (opts.once) forgetPagesOf(path);
      return bytes;
    } catch (e) {
      if ((e as { code?: unknown }).code === "ENOENT") return null;
      throw e;
    }
  }

  has(hash: string): boolean {
    return existsSync(join(this.dir, named(hash)));
  }

  remove(hash: string): void {
    rmSync(join(this.dir, named(hash)), { force: true });
  }

  leftovers(named: ReadonlySet<string>, before: number): { photos: string[]; unfinished: string[] } {
    const out = { photos: [] as string[], unfinished: [] as string[] };
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (e) {
      if ((e as { code?: unknown }).code === "ENOENT") return out;
      throw e;
    }
    for (const name of names) {
      const whole = HASH.test(name);
      // Only what this class writes is looked at; a file named otherwise is not ours to remove.
      if (whole ? named.has(name) : !UNFINISHED.test(name)) continue;
      let modified: number;
      try {
        modified = statSync(join(this.dir, name)).mtimeMs;
      } catch {
        continue;
      }
      if (modified < before) (whole ? out.photos : out.unfinished).push(name);
    }
    return out;
  }

  removeUnfinished(name: string): void {
    if (!UNFINISHED.test(name)) throw new Error("not an unfinished photo");
    rmSync(join(this.dir, name), { force: true });
  }
}

/** The photos of an in-memory store (tests): gone with it. */
export class MemoryPhotoFiles implements PhotoFiles {
  private readonly files = new Map<string, Uint8Array>();
  put(hash: string, bytes: Uint8Array): void {
    this.files.set(named(hash), bytes.slice());
  }
  read(hash: string): Uint8Array | null {
    return this.files.get(hash) ?? null;
  }
  has(hash: string): boolean {
    return this.files.has(hash);
  }
  remove(hash: string): void {
    this.files.delete(hash);
  }
  leftovers(named: ReadonlySet<string>): { photos: string[]; unfinished: string[] } {
    // Written at once, never half-way; their age is not kept (an in-memory store lives for a test).
    return { photos: [...this.files.keys()].filter((h) => !named.has(h)), unfinished: [] };
  }
  removeUnfinished(): void {}
}
