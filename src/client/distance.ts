/** Where the attendant stands against the site's map points: pure, so a test reads it without a page. */

export interface MapPoint {
  latitude: number;
  longitude: number;
}

/** Metres between two points (haversine): close enough to order a site's zones and lots by distance. */
export function metres(a: MapPoint, b: MapPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const x =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 12_742_000 * Math.asin(Math.sqrt(x));
}

/** Metres to the nearest of `points`; null without a position or a point. */
export function nearest(here: MapPoint | null, points: readonly MapPoint[]): number | null {
  if (!here || points.length === 0) return null;
  return Math.min(...points.map((p) => metres(here, p)));
}
