import { afterEach, beforeEach, describe, expect, spyOn, test } from "bun:test";
import { type LookupRecord, LookupRecorder } from "../../../src/modules/enforcement/lookup-recorder.ts";
import { setLogging } from "../../../src/platform/log.ts";
import { Metrics } from "../../../src/platform/metrics.ts";
import type { Store } from "../../../src/platform/store/db.ts";

/** A store whose lookup table refuses writes (a full disk) until `full` is turned off. */
function fullStore() {
  const state = { full: true, writes: 0, written: 0 };
  const store = {
    lookups: {
      append(batch: LookupRecord[]) {
        state.writes++;
        if (state.full) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
        state.written += batch.length;
      },
    },
  } as unknown as Store;
  return { store, state };
}

const record = (i: number): LookupRecord => ({
  at: i,
  credential: "token t",
  by: "registration_number",
  query: "ABC123",
  results: 0,
  verdict: null,
  cameraRead: null,
});

describe("lookup records while the store refuses writes", () => {
  let stderr: ReturnType<typeof spyOn<typeof process.stderr, "write">>;
  beforeEach(() => {
    setLogging(true);
    stderr = spyOn(process.stderr, "write").mockImplementation(() => true);
  });
  afterEach(() => {
    stderr.mockRestore();
    setLogging(false);
  });

  test("wait in memory up to a bound, retried on a timer (not on every lookup), logged once, drops counted", async () => {
    const { store, state } = fullStore();
    const metrics = new Metrics();
    const recorder = new LookupRecorder(store, metrics);
    for (let i = 0; i < 2_000; i++) recorder.record(record(i));
    // The first flush (at 500 waiting) failed; the next 1,500 lookups did not try again.
    expect(state.writes).toBe(1);
    expect(recorder.pending).toBe(2_000);
    expect(stderr.mock.calls.length).toBe(1);
    expect(String(stderr.mock.calls[0]![0])).not.toContain("stack");
    for (let i = 0; i < 60_000; i++) recorder.record(record(i));
    expect(recorder.pending).toBe(50_000);
    expect(metrics.render()).toContain('parkd_dropped_total{what="lookup_records"} 12000');
    state.full = false;
    await Bun.sleep(2_200);
    expect(state.written).toBe(50_000);
    expect(recorder.pending).toBe(0);
    const lines = stderr.mock.calls.map((c: unknown[]) => JSON.parse(String(c[0])).msg as string);
    expect(lines).toEqual([
      "lookup records could not be written; kept in memory for a retry",
      "lookup records could not be written; kept in memory for a retry: recovered",
    ]);
    recorder.stop();
  });
});
