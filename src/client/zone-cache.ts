import type { ZonePermits } from "./api-types.ts";

/**
 * The last zone list per zone, kept in the Cache API (shared with the service worker, which
 * answers GET /api/v1/tickets/zone/{zone} from it when the box cannot be reached), stamped with
 * when it was current.
 */
export const ZONE_CACHE = "parkd-zones-v1";
export const SAVED_AT = "x-parkd-saved-at";

export function zonePath(zone: number): string {
  return `/api/v1/tickets/zone/${zone}`;
}

export async function saveZone(zone: number, plates: string[]): Promise<void> {
  if (!("caches" in self)) return;
  const cache = await caches.open(ZONE_CACHE);
  await cache.put(
    zonePath(zone),
    new Response(JSON.stringify({ data: plates }), {
      headers: { "content-type": "application/json", [SAVED_AT]: String(Date.now()) },
    }),
  );
}

export async function savedZone(zone: number): Promise<{ plates: string[]; at: number } | null> {
  if (!("caches" in self)) return null;
  const cache = await caches.open(ZONE_CACHE);
  const hit = await cache.match(zonePath(zone));
  if (!hit) return null;
  const at = Number(hit.headers.get(SAVED_AT));
  const body = (await hit.json()) as { data: string[] };
  return { plates: body.data, at: Number.isFinite(at) ? at : 0 };
}

/** Where a zone's saved list for offline verdicts is kept: the path it is fetched from. */
export function zonePermitsPath(zone: number): string {
  return `${zonePath(zone)}/permits`;
}

/** Entries written to bytes in one step of `listBytes`. */
const ENTRIES_A_STEP = 500;

/**
 * The saved list as JSON bytes, written a slice of entries at a time with the page let go between
 * slices: a busy zone's list is megabytes, and writing it as one string and then encoding it held
 * a phone slowed 4× for over 200 ms. The same JSON as JSON.stringify but for the order of keys.
 */
export async function listBytes(list: ZonePermits, between: () => Promise<void>): Promise<Blob> {
  const encoder = new TextEncoder();
  const { plates, permits, observations, ...head } = list;
  const parts: Uint8Array[] = [encoder.encode(`${JSON.stringify(head).slice(0, -1)},"plates":`)];
  parts.push(encoder.encode(JSON.stringify(plates)));
  for (const [key, entries] of [
    ["permits", permits],
    // A list kept before marks were in it has none.
    ["observations", observations ?? []],
  ] as const) {
    parts.push(encoder.encode(`,"${key}":[`));
    for (let i = 0; i < entries.length; i += ENTRIES_A_STEP) {
      await between();
      const slice = JSON.stringify(entries.slice(i, i + ENTRIES_A_STEP)).slice(1, -1);
      parts.push(encoder.encode(i === 0 ? slice : `,${slice}`));
    }
    parts.push(encoder.encode("]"));
  }
  parts.push(encoder.encode("}"));
  return new Blob(parts as BlobPart[], { type: "application/json" });
}

/** The zone's saved list for offline verdicts as the box sent it, with its ETag. */
export async function savePermits(zone: number, body: string | Blob, etag: string | null): Promise<void> {
  if (!("caches" in self)) return;
  const cache = await caches.open(ZONE_CACHE);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (etag) headers.etag = etag;
  await cache.put(zonePermitsPath(zone), new Response(body, { headers }));
}

export async function savedPermits(zone: number): Promise<{ list: ZonePermits; etag: string | null } | null> {
  if (!("caches" in self)) return null;
  const cache = await caches.open(ZONE_CACHE);
  const hit = await cache.match(zonePermitsPath(zone));
  if (!hit) return null;
  return { list: (await hit.json()) as ZonePermits, etag: hit.headers.get("etag") };
}
