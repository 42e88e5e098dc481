import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCheckpointer } from "../../../src/platform/store/checkpointer.ts";
import { openStore } from "../../../src/platform/store/db.ts";

test("the checkpoint thread moves committed WAL frames into the database file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parkd-ckpt-"));
  const store = openStore(dir);
  const checkpointer = await startCheckpointer(store, 20);
  const before = statSync(store.path).size;
  const insert = store.sqlite.prepare("INSERT INTO store_probe (id, checked_at) VALUES (?1, ?2)");
  store.sqlite.transaction(() => {
    for (let i = 10; i < 20_010; i++) insert.run(i, i);
  })();
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    const r = checkpointer.last();
    if (r && r.log > 0 && r.checkpointed === r.log) break;
    await Bun.sleep(20);
  }
  const r = checkpointer.last()!;
  expect(r.log).toBeGreaterThan(0);
  expect(r.checkpointed).toBe(r.log);
  expect(statSync(store.path).size).toBeGreaterThan(before);
  await checkpointer.stop();
  expect(store.sqlite.query("SELECT count(*) AS n FROM store_probe").get()).toEqual({ n: 20_000 });
  store.close();
  rmSync(dir, { recursive: true, force: true });
});
