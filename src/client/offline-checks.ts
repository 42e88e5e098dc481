/**
 * Verdicts the phone gave from its saved list while the box did not answer, kept on the phone
 * and sent when it answers again (POST /api/v1/attendants/offline-checks), so the audit has no
 * gap for those minutes. Kept per credential: only the one that checked sends them, so each is
 * recorded under the attendant who answered it. Sending twice is harmless: the box records a
 * check it holds (same credential, plate, zone and instant) once.
 */
import { ApiError, api } from "./api.ts";
import type { OfflineCheck, OfflineChecksReceipt } from "./api-types.ts";

const KEY = "parkd.offlineChecks";
/** Checks kept at most (some 300 KB): a day's rounds offline; past it the oldest go. */
const KEPT_MAX = 2_000;
/** As many as the box takes in one request. */
const BATCH = 200;
const SEND_TIMEOUT_MS = 10_000;

interface Kept {
  owner: string;
  check: OfflineCheck;
}

function kept(): Kept[] {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? "[]") as unknown;
    return Array.isArray(list) ? (list as Kept[]) : [];
  } catch {
    return [];
  }
}

function keep(list: Kept[]): void {
  localStorage.setItem(KEY, JSON.stringify(list.slice(-KEPT_MAX)));
}

/** Keeps a check answered from the saved list, to be sent when the box answers. */
export function keepOfflineCheck(owner: string, check: OfflineCheck): void {
  try {
    keep([...kept(), { owner, check }]);
  } catch {
    // Storage full or refused: the verdict stands; only its record is lost.
  }
}

/** The checks of this credential waiting to be sent. */
export function offlineChecksWaiting(owner: string): number {
  return kept().filter((k) => k.owner === owner).length;
}

let sending: Promise<number> | null = null;

/**
 * Sends this credential's waiting checks, oldest first, a batch at a time; returns how many the
 * box took. A batch the box refuses (400: a phone's clock set far wrong) is dropped, as sending
 * it again would be refused again; anything else (offline, the box busy) leaves them waiting.
 */
export function sendOfflineChecks(owner: string): Promise<number> {
  sending ??= sendAll(owner).finally(() => {
    sending = null;
  });
  return sending;
}

async function sendAll(owner: string): Promise<number> {
  let taken = 0;
  for (;;) {
    const batch = kept()
      .filter((k) => k.owner === owner)
      .slice(0, BATCH);
    if (batch.length === 0) return taken;
    let done = batch;
    try {
      const r = await api<OfflineChecksReceipt>(
        "POST",
        "/api/v1/attendants/offline-checks",
        { checks: batch.map((k) => k.check) },
        SEND_TIMEOUT_MS,
      );
      taken += r.recorded + r.already;
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 400)) return taken;
      // The box refuses a batch whole: only the checks it names go (they would be refused
      // again); the others are sent in the next round of this loop.
      const refused = new Set(
        (e.problem.errors ?? []).map((x) => Number(/^\/checks\/(\d+)/.exec(x.pointer ?? "")?.[1])),
      );
      done = refused.size > 0 && !refused.has(Number.NaN) ? batch.filter((_, i) => refused.has(i)) : batch;
    }
    // Only what was sent and taken (or refused for good) leaves: checks kept meanwhile stay.
    keep(kept().filter((k) => !done.some((b) => same(b, k))));
  }
}

const same = (a: Kept, b: Kept) =>
  a.owner === b.owner &&
  a.check.checked_at === b.check.checked_at &&
  a.check.registration_number === b.check.registration_number &&
  a.check.zone === b.check.zone;
