/**
 * Control notices and marks on their way to the box. Each is written into IndexedDB (a notice
 * with its photos) before anything is sent, and leaves it only when the box has acknowledged it
 * (a notice, every photo): one made offline, or cut off half sent, is sent again until it is in.
 * Sending twice is harmless by design: the id is made here, and the box answers a notice or a
 * mark it holds with what it stored, and a photo it holds (by hash) with 200.
 */
import { ApiError, api, Offline, postBytes } from "./api.ts";
import type { MarkInput, NoticeInput, NoticeReceipt, ObservationReceipt } from "./api-types.ts";

const DB = "parkd-notices";
const STORE = "waiting";
/** Long enough for 500 KB over a poor Wi-Fi; a notice's JSON is small. */
const NOTICE_TIMEOUT_MS = 10_000;
const PHOTO_TIMEOUT_MS = 60_000;

/** An id for a notice or a mark, made here: a UUID (the page is served over HTTPS or from localhost). */
export function phoneId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

export interface WaitingNotice {
  /** Absent on notices kept before marks shared the queue. */
  kind?: "notice";
  input: NoticeInput;
  photos: Blob[];
  /** The credential that made it: only that credential may send it (and add its photos). */
  owner: string;
  /** Shown while it waits: the reason's title and amount when it was made. */
  reasonTitle: string;
  amount: number;
  currency: string;
  /** Photos the box has acknowledged, by position: a resend skips them. */
  photosSent: number;
  /** The box's number once it has the notice (photos may still be on their way). */
  number: number | null;
  /** The box refused it for good (a 4xx other than 401): kept, shown, never sent again. */
  refused: string | null;
}

/** A car marked while the box could not be reached: its time of marking is the phone's. */
export interface WaitingMark {
  kind: "mark";
  input: MarkInput & { id: string; marked_at: string };
  /** The credential that made it: only that credential may send it. */
  owner: string;
  /** The box refused it for good (a 4xx other than 401): kept, shown, never sent again. */
  refused: string | null;
}

export type Waiting = WaitingNotice | WaitingMark;

export const isMark = (w: Waiting): w is WaitingMark => w.kind === "mark";

/** When it was made, as sent: both are ISO 8601 in UTC, so the text orders as the instant does. */
const madeAt = (w: Waiting) => (isMark(w) ? w.input.marked_at : w.input.observed_at);

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: "input.id" });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function tx<T>(mode: IDBTransactionMode, work: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const t = db.transaction(STORE, mode);
      const req = work(t.objectStore(STORE));
      // Resolved on the commit, not the request: "kept" means on disk before anything is sent.
      t.oncomplete = () => resolve(req.result);
      t.onerror = () => reject(t.error);
      t.onabort = () => reject(t.error);
    });
  } finally {
    db.close();
  }
}

export function keep(w: Waiting): Promise<IDBValidKey> {
  return tx("readwrite", (s) => s.put(w));
}

/** What waits on the phone, notices and marks, oldest first. */
export async function waiting(): Promise<Waiting[]> {
  if (!("indexedDB" in self)) return [];
  const all = await tx<Waiting[]>("readonly", (s) => s.getAll());
  return all.sort((a, b) => madeAt(a).localeCompare(madeAt(b)));
}

function drop(id: string): Promise<undefined> {
  return tx("readwrite", (s) => s.delete(id));
}

/** Removes a refused mark the attendant has read: the box will not take it, and it would stay listed. */
export function discard(id: string): Promise<undefined> {
  return drop(id);
}

/** What became of one notice or mark in a round of sending. */
export type Sent =
  | { id: string; done: true; receipt: NoticeReceipt }
  | { id: string; done: true; mark: ObservationReceipt["data"] }
  | { id: string; done: false; refused: string | null };

/**
 * Sends `owner`'s waiting notices and marks, oldest first, each notice then its photos; stops at
 * the first sign that the box cannot be reached (the rest wait for the next round). One round at
 * a time.
 */
let round: Promise<Sent[]> | null = null;
export function sendWaiting(owner: string): Promise<Sent[]> {
  round ??= sendAll(owner).finally(() => {
    round = null;
  });
  return round;
}

async function sendAll(owner: string): Promise<Sent[]> {
  const out: Sent[] = [];
  for (const n of await waiting()) {
    if (n.owner !== owner || n.refused) continue;
    try {
      out.push(
        isMark(n)
          ? { id: n.input.id, done: true, mark: await sendMark(n) }
          : { id: n.input.id, done: true, receipt: await sendOne(n) },
      );
    } catch (e) {
      if (e instanceof Offline || (e instanceof ApiError && (e.status === 401 || e.status >= 500))) {
        out.push({ id: n.input.id, done: false, refused: null });
        break;
      }
      // Refused for good (the reason retired meanwhile, a bad photo, a mark from before today):
      // kept and shown, not retried.
      n.refused = !(e instanceof ApiError)
        ? String(e)
        : isMark(n)
          ? // Read on the street: the problem's title, or the field's words, not the instants.
            (e.problem.errors?.[0]?.message ?? e.problem.title ?? e.message)
          : `${e.status} ${e.message}`;
      await keep(n);
      out.push({ id: n.input.id, done: false, refused: n.refused });
    }
  }
  return out;
}

async function sendMark(m: WaitingMark): Promise<ObservationReceipt["data"]> {
  const { data } = await api<ObservationReceipt>(
    "POST",
    "/api/v1/attendants/observations",
    m.input,
    NOTICE_TIMEOUT_MS,
  );
  await drop(m.input.id);
  return data;
}

async function sendOne(n: WaitingNotice): Promise<NoticeReceipt> {
  const { data } = await api<{ data: NoticeReceipt }>(
    "POST",
    "/api/v1/attendants/notices",
    n.input,
    NOTICE_TIMEOUT_MS,
  );
  if (n.number !== data.number) {
    n.number = data.number;
    await keep(n);
  }
  const path = `/api/v1/attendants/notices/${encodeURIComponent(n.input.id)}/photos`;
  const photos = [...data.photos];
  while (n.photosSent < n.photos.length) {
    const { data: photo } = await postBytes<{ data: NoticeReceipt["photos"][number] }>(
      path,
      n.photos[n.photosSent]!,
      PHOTO_TIMEOUT_MS,
    );
    if (!photos.some((p) => p.hash === photo.hash)) photos.push(photo);
    n.photosSent++;
    await keep(n);
  }
  await drop(n.input.id);
  return { ...data, photos };
}
