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
