import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isStoreUnavailable, WalSync } from "../../../src/platform/store/connection.ts";
import { tempDirs } from "../../support/temp.ts";

const tempDir = tempDirs("parkd-wal-sync-");

/** A sync the test ends by hand, counting how many were started. */
function heldSyncs() {
  const runs: { end: (error?: Error) => void }[] = [];
  const sync = () =>
    new Promise<void>((resolve, reject) => runs.push({ end: (e) => (e ? reject(e) : resolve()) }));
  return { runs, sync };
}

const settled = async (p: Promise<unknown>) => {
  let state = "pending";
  p.then(
    () => (state = "resolved"),
    () => (state = "rejected"),
  );
  await Bun.sleep(1);
  return state;
};

describe("the WAL synced off the event loop", () => {
  test("callers during a sync wait for the next one, which all of them share", async () => {
    const { runs, sync } = heldSyncs();
    const wal = new WalSync("/x-wal", sync);
    const first = wal.synced();
    // Committed after the first sync began: that sync may not hold them.
    const second = wal.synced();
    const third = wal.synced();
    expect(runs.length).toBe(1);
    runs[0]!.end();
    expect(await settled(first)).toBe("resolved");
    expect(await settled(second)).toBe("pending");
    expect(runs.length).toBe(2);
    runs[1]!.end();
    expect(await settled(second)).toBe("resolved");
    expect(await settled(third)).toBe("resolved");
    // Nothing waits: the next caller starts a sync of its own.
    const fourth = wal.synced();
    expect(runs.length).toBe(3);
    runs[2]!.end();
    expect(await settled(fourth)).toBe("resolved");
  });

  test("a failed sync fails its callers only; the next caller syncs again", async () => {
    const { runs, sync } = heldSyncs();
    const wal = new WalSync("/x-wal", sync);
    const first = wal.synced();
    const second = wal.synced();
    runs[0]!.end(new Error("EIO"));
    expect(await settled(first)).toBe("rejected");
    expect(runs.length).toBe(2);
    runs[1]!.end();
    expect(await settled(second)).toBe("resolved");
  });

  test("a store in memory has nothing to sync", async () => {
    const { runs, sync } = heldSyncs();
    await new WalSync(null, sync).synced();
    expect(runs.length).toBe(0);
  });

  test("on the disk: a real file syncs; a missing one fails as a store that cannot write (503)", async () => {
    const dir = tempDir();
    const file = join(dir, "parkd.db-wal");
    writeFileSync(file, "frames");
    await new WalSync(file).synced();
    const error = await new WalSync(join(dir, "gone-wal")).synced().catch((e) => e);
    expect(error.code).toBe("SQLITE_IOERR_FSYNC");
    expect(isStoreUnavailable(error)).toBe(true);
  });
});
