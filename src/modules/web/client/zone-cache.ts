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

/** The zone's saved list for offline verdicts as the box sent it, with its ETag. */
export async function savePermits(zone: number, body: string, etag: string | null): Promise<void> {
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
