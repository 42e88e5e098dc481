/**
 * The store's long steps before `serve` can answer from it, on a thread of its own so that the
 * listener answers meanwhile (503, with the step and its progress): the copy taken before a
 * schema upgrade, the upgrade itself (an index rebuilt over millions of lookup records takes tens
 * of seconds), and the revenue book built again. The main thread then opens a store that needs
 * none of them. preparation.ts drives it. The copy's check is left for after serve answers
 * (copy-check-worker.ts; upgrade.ts's copyBeforeUpgrade says why).
 */
import { openStore } from "./db.ts";

declare const self: Worker;

export interface PreparationRequest {
  dataDir: string;
  timezone: string;
  currency: string;
  aloneWhenFull: boolean;
}

self.onmessage = (event: MessageEvent<PreparationRequest>) => {
  const r = event.data;
  try {
    postMessage({ kind: "step", step: "schema" });
    const store = openStore(r.dataDir, { aloneWhenFull: r.aloneWhenFull, checkCopyLater: true });
    try {
      postMessage({ kind: "step", step: "revenue" });
      try {
        store.reports.revenue.ensureBasis(r.timezone, r.currency, Date.now());
      } catch {
        // A store that cannot take the write now (read-only, full) is served anyway: serve tries
        // the book again once it runs, says why it failed, and the first ticket event or report
        // builds it once it can.
      }
      postMessage({ kind: "done", upgrade: store.upgrade });
    } finally {
      store.close();
    }
  } catch (e) {
    postMessage({ kind: "failed", message: (e as Error).message });
  }
};
