import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BackupError, backupStore, restoreStore } from "../../../src/platform/store/backup.ts";
import { openStore, type Store } from "../../../src/platform/store/db.ts";
import { pngPhoto } from "../../support/photos.ts";
import { tempDirs } from "../../support/temp.ts";

const newDir = tempDirs("parkd-backup-photos-");
const T0 = Date.parse("2026-06-15T10:00:00Z");

/** A store with one notice holding two photos, their files in the data folder's photos/. */
function storeWithPhotos(): { dataDir: string; hashes: string[]; photos: Uint8Array[] } {
  const dataDir = newDir();
  const store: Store = openStore(dataDir, { create: true });
  try {
    const photos = [pngPhoto(40, 30, 1), pngPhoto(60, 20, 2)];
    const hashes = photos.map((p) => createHash("sha256").update(p).digest("hex"));
    store.transaction(() => {
      store.notices.insert({
        id: "notice-0001",
        plate: "ABC 123",
        plateNorm: "ABC123",
        zone: 1002,
        lotId: null,
        verdict: "none",
        reasonCode: "no-permit",
        reasonTitle: "No valid permit",
        amount: 50_000,
        currency: "SEK",
        note: "",
        observedAt: T0,
        issuedAt: T0,
        issuedBy: "token:handheld-1",
      });
      photos.forEach((bytes, i) => {
        store.photos.put(hashes[i]!, bytes);
        store.notices.addPhoto({
          noticeId: "notice-0001",
          hash: hashes[i]!,
          contentType: "image/png",
          bytes: bytes.length,
          width: 40,
          height: 30,
          addedAt: T0,
        });
      });
    })();
    return { dataDir, hashes, photos };
  } finally {
    store.close();
  }
}

const tables = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.query("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
      (r) => r.name,
    );
  } finally {
    db.close(false);
  }
};

describe("photos in backup and restore", () => {
  test("the backup is one file carrying the photos; restore into an empty folder brings them back", () => {
    const { dataDir, hashes, photos } = storeWithPhotos();
    const file = join(newDir(), "nightly.db");
    const report = backupStore(dataDir, file);
    expect(report.photos).toBe(2);
    expect(report.photosMissing).toBe(0);
    expect(tables(file)).toContain("backup_photos");
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const elsewhere = newDir();
    const restored = restoreStore(elsewhere, file);
    expect(restored.photos).toBe(2);
    hashes.forEach((hash, i) => {
      const path = join(elsewhere, "photos", hash);
      expect(Buffer.from(readFileSync(path)).equals(Buffer.from(photos[i]!))).toBe(true);
      expect(statSync(path).mode & 0o777).toBe(0o600);
    });
    // The restored store itself does not keep the copies: the files are the photos.
    expect(tables(join(elsewhere, "parkd.db"))).not.toContain("backup_photos");
    const store = openStore(elsewhere);
    try {
      expect(store.notices.photos("notice-0001").map((p) => p.hash)).toEqual(hashes);
      expect(Buffer.from(store.photos.read(hashes[0]!)!).equals(Buffer.from(photos[0]!))).toBe(true);
    } finally {
      store.close();
    }
  });

  test("a backup removes the unfinished copy a killed backup of the same file left; a living one's stays", () => {
    const { dataDir } = storeWithPhotos();
    const dir = newDir();
    const file = join(dir, "nightly.db");
    // No process has pid 2^22 + 1 (above Linux's limit); this process is alive.
    const killed = join(dir, `.nightly.db.partial-${2 ** 22 + 1}`);
    const living = join(dir, `.nightly.db.partial-${process.ppid}`);
    for (const f of [killed, living]) writeFileSync(f, "as big as the store");
    backupStore(dataDir, file);
    expect(existsSync(killed)).toBe(false);
    expect(existsSync(living)).toBe(true);
    expect(existsSync(file)).toBe(true);
  });

  test("a photo file missing from the data folder is counted, and the backup is still made", () => {
    const { dataDir, hashes } = storeWithPhotos();
    rmSync(join(dataDir, "photos", hashes[1]!));
    const file = join(newDir(), "nightly.db");
    const report = backupStore(dataDir, file);
    expect([report.photos, report.photosMissing]).toEqual([1, 1]);
  });

  test("a backup with a damaged photo is refused and changes nothing", () => {
    const { dataDir } = storeWithPhotos();
    const file = join(newDir(), "nightly.db");
    backupStore(dataDir, file);
    const db = new Database(file, { readwrite: true });
    db.run("UPDATE backup_photos SET bytes = zeroblob(200) WHERE rowid = 1");
    db.close(false);
    const elsewhere = newDir();
    expect(() => restoreStore(elsewhere, file)).toThrow(BackupError);
    expect(existsSync(join(elsewhere, "parkd.db"))).toBe(false);
    expect(existsSync(join(elsewhere, "photos"))).toBe(false);
  });
});
