import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { EXAMPLE_LOT } from "../../../src/domain/lots/example.ts";
import { completeLot } from "../../../src/domain/lots/rules.ts";
import { LotReads } from "../../../src/modules/public/lot-reads.ts";
import type { KeptBody } from "../../../src/platform/http/shared-body.ts";
import { openStore, Store } from "../../../src/platform/store/db.ts";
import * as schema from "../../../src/platform/store/schema/index.ts";
import { tempDirs } from "../../support/temp.ts";

const tempDir = tempDirs("parkd-lot-reads-");
const lot = (id: number, name: string) => completeLot({ ...EXAMPLE_LOT, id, name }, id);
const text = (body: KeptBody) => (typeof body === "string" ? body : new TextDecoder().decode(body));
const names = (reads: LotReads) =>
  (JSON.parse(text(reads.list().body)).data as { name: string }[]).map((l) => l.name);

describe("the public lot reads' rendered copy", () => {
  test("follows this process's writes, another connection's commits, and a reconnection", () => {
    const dir = tempDir();
    const first = openStore(dir);
    first.lots.insert(lot(1, "A"), true, 1, "test");
    first.close();

    // serve opened a write-protected file: read-only until recoverWrites() opens it again.
    const ro = new Database(join(dir, "parkd.db"), { readonly: true, strict: true });
    const store = new Store(join(dir, "parkd.db"), dir, ro, drizzle({ client: ro, schema }));
    const reads = new LotReads(store);
    expect(names(reads)).toEqual(["A"]);

    const cli = openStore(dir);
    cli.lots.insert(lot(2, "B"), true, 2, "cli");
    cli.close();
    expect(store.recoverWrites(Date.now(), 0)).toBe(true);
    // The new connection's data_version can equal the old one's: the copy must not take it for unchanged.
    expect(names(reads)).toEqual(["A", "B"]);

    store.lots.insert(lot(3, "C"), true, 3, "test");
    expect(names(reads)).toEqual(["A", "B", "C"]);
    const before = reads.one(3).etag;
    store.lots.update({ ...lot(3, "C2") }, 4, "test");
    expect(reads.one(3).etag).not.toBe(before);
    expect(JSON.parse(text(reads.one(3).body)).data.name).toBe("C2");
    store.close();
  });
});
