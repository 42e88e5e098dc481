/**
 * Checks the copies taken before an upgrade that are not checked yet (upgrade.ts's
 * keepCheckedCopy), on a thread of its own at the lowest priority: an integrity check of a
 * large copy is tens of seconds of CPU on a small box, and the requests serve answers meanwhile
 * come first. copy-check.ts drives it.
 */
import { setPriority } from "node:os";
import { CopyDamaged, keepCheckedCopy, uncheckedCopies } from "./upgrade.ts";

declare const self: Worker;

/** What the thread says of each copy. */
export type CopyCheckResult =
  | { copy: string; kept: string }
  /** `deleted`: the check showed it damaged; otherwise it could not run, and the copy stays unchecked. */
  | { copy: string; failed: string; deleted: boolean };

self.onmessage = (event: MessageEvent<{ dataDir: string }>) => {
  try {
    // On Linux this lowers this thread only; the listener's thread keeps its priority.
    setPriority(19);
  } catch {
    // Not allowed here: the check still runs, at the same priority as serve.
  }
  for (const copy of uncheckedCopies(event.data.dataDir)) {
    try {
      postMessage({ copy, kept: keepCheckedCopy(copy) } satisfies CopyCheckResult);
    } catch (e) {
      postMessage({
        copy,
        failed: (e as Error).message,
        deleted: e instanceof CopyDamaged,
      } satisfies CopyCheckResult);
    }
  }
  postMessage(null);
};
