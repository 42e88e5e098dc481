/**
 * The check of the copies taken before an upgrade, made after serve answers (upgrade.ts's
 * copyBeforeUpgrade says why it waits), on a thread of low priority (copy-check-worker.ts).
 * Also finishes a copy a serve that was stopped during its check left unchecked.
 */
import type { CopyCheckResult } from "./copy-check-worker.ts";
import { uncheckedCopies } from "./upgrade.ts";

export type { CopyCheckResult };

function workerUrl(): string {
  return import.meta.url.includes("/$bunfs/")
    ? new URL("./platform/store/copy-check-worker.ts", Bun.pathToFileURL(Bun.main)).href
    : new URL("./copy-check-worker.ts", import.meta.url).href;
}

/**
 * Checks every copy in dataDir that is not checked yet, telling each result; resolves when all
 * are done (at once when there is none). `stop()` ends the thread: the copy being checked stays
 * unchecked, for the next serve to check.
 */
export function checkCopiesAside(
  dataDir: string,
  onResult: (r: CopyCheckResult) => void,
): { done: Promise<void>; stop: () => void } {
  if (uncheckedCopies(dataDir).length === 0) return { done: Promise.resolve(), stop: () => {} };
  const worker = new Worker(workerUrl());
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = () => {
      worker.terminate();
      resolve();
    };
  });
  worker.onmessage = (event: MessageEvent<CopyCheckResult | null>) => {
    if (event.data === null) finish();
    else onResult(event.data);
  };
  worker.onerror = (e) => {
    onResult({ copy: "", failed: e.message, deleted: false });
    finish();
  };
  worker.postMessage({ dataDir });
  return { done, stop: finish };
}
