import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../../src/platform/store/db.ts";
import { startStoreThread } from "../../../src/platform/store/store-thread.ts";

test("the checkpoint thread moves committed WAL frames into the database file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parkd-ckpt-"));
  const store = openStore(dir);
  const ownCheckpointAt = () =>
    (store.sqlite.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number })
      .wal_autocheckpoint;
  expect(ownCheckpointAt()).toBe(1_000);
  const thread = await startStoreThread(store, 20);
  // The thread checkpoints; the server's connection only once the thread has fallen far behind.
  expect(ownCheckpointAt()).toBe(3_000);
  const before = statSync(store.path).size;
  const insert = store.sqlite.prepare("INSERT INTO store_probe (id, checked_at) VALUES (?1, ?2)");
  store.sqlite.transaction(() => {
    for (let i = 10; i < 20_010; i++) insert.run(i, i);
  })();
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const r = thread.last();
    if (r && r.log > 0 && r.checkpointed === r.log) break;
    await Bun.sleep(20);
  }
  const r = thread.last()!;
  expect(r.log).toBeGreaterThan(0);
  expect(r.checkpointed).toBe(r.log);
  expect(statSync(store.path).size).toBeGreaterThan(before);
  await thread.stop();
  expect(store.sqlite.query("SELECT count(*) AS n FROM store_probe").get()).toEqual({ n: 20_000 });
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the store thread counts on its own connection, and says why it cannot", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parkd-count-"));
  const store = openStore(dir);
  const thread = await startStoreThread(store, 1_000);
  const insert = store.sqlite.prepare("INSERT INTO store_probe (id, checked_at) VALUES (?1, ?2)");
  for (let i = 10; i < 15; i++) insert.run(i, i);
  const before = (store.sqlite.query("SELECT count(*) AS n FROM store_probe").get() as { n: number }).n;
  expect(await thread.count("SELECT count(*) AS n FROM store_probe")).toBe(before);
  const refused = await thread
    .count("SELECT count(*) AS n FROM no_such_table")
    .catch((e: Error) => e.message);
  expect(refused).toMatch(/no such table/);
  await thread.stop();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});
