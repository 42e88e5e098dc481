import type { EndReason } from "./credential-watch.ts";

/** The live zone feed's events as sent, and the arithmetic of a zone list's changes. */

export const encoder = new TextEncoder();

/** One change of a zone's list: from one version to the next. */
export interface Change {
  from: string;
  to: string;
  added: string[];
  removed: string[];
}

/** The last event of a feed whose credential can no longer be used: the page signs in again. */
export function endedEvent(reason: EndReason): Uint8Array {
  return encoder.encode(`event: ended\ndata: ${JSON.stringify({ reason })}\n\n`);
}

export function platesEvent(id: string, body: string): Uint8Array {
  return encoder.encode(`event: plates\nid: ${id}\ndata: ${body}\n\n`);
}

export function changesEvent(from: string, to: string, added: string[], removed: string[]): Uint8Array {
  return encoder.encode(`event: changes\nid: ${to}\ndata: ${JSON.stringify({ from, added, removed })}\n\n`);
}

/**
 * What is in `after` and not in `before`, and the reverse, each in its list's order. Plates are
 * listed in the plate order (Å, Ä, Ö after Z), not by code unit, so this does not walk them as
 * sorted arrays.
 */
export function diffLists(
  before: readonly string[],
  after: readonly string[],
): { added: string[]; removed: string[] } {
  const was = new Set(before);
  const is = new Set(after);
  return { added: after.filter((p) => !was.has(p)), removed: before.filter((p) => !is.has(p)) };
}

/** The changes since version `from`, as one (what was added and then removed cancels out); null when `from` is not among them. */
export function changesSince(
  changes: readonly Change[],
  from: string,
): { added: string[]; removed: string[] } | null {
  const start = changes.findIndex((c) => c.from === from);
  if (start < 0) return null;
  const added = new Set<string>();
  const removed = new Set<string>();
  for (const c of changes.slice(start)) {
    for (const p of c.added) if (!removed.delete(p)) added.add(p);
    for (const p of c.removed) if (!added.delete(p)) removed.add(p);
  }
  return { added: [...added], removed: [...removed] };
}
