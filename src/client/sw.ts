/**
 * The service worker: keeps the page itself and the last zone lists, so a handheld that loses
 * the site Wi-Fi still opens the page and shows the list it last saw, with its age; the kiosk
 * board's page, so a lobby screen reloaded while the box is away still shows its last figures;
 * and the plate reader's files, so the camera reads plates with the box out of reach. Everything
 * else goes to the network as it is; checks are reads and are never queued.
 */
import { SAVED_AT, ZONE_CACHE } from "./zone-cache.ts";

interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(r: Promise<Response> | Response): void;
}
declare const self: {
  addEventListener(type: "install" | "activate", fn: (e: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", fn: (e: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  location: Location;
};

const SHELL = "parkd-shell-v2";
/**
 * How long the network may take before the kept copy answers (when there is one): the page itself
 * 0.8 s (the box is on the LAN; one that takes longer is frozen or out of reach, and a reload
 * then shows the check page within a few seconds, not after a wait per file), a zone list 4 s.
 */
const PAGE_WAIT_MS = 800;
const NETWORK_WAIT_MS = 4_000;
const ZONE_LIST = /^\/api\/v1\/tickets\/zone\/\d+$/;
/** The plate reader's files, under their build's tag: one build's kept at a time (some 7 MB). */
const READER = "parkd-plate-reader";
const READER_FILE = /^(\/plate-reader\/[^/]+\/)[^/]+$/;

/** A page of the app (`/`, the kiosk board's `/board`) and the files it names, each under its own key. */
async function cachePage(cache: Cache, page: string): Promise<void> {
  const res = await fetch(page, { cache: "no-store" });
  const html = await res.clone().text();
  await cache.put(page, res);
  const refs = [...html.matchAll(/(?:href|src)="(\/[^"]*)"/g)].map((m) => m[1]!);
  await Promise.all(
    refs.map(async (ref) => {
      const r = await fetch(ref, { cache: "no-store" });
      if (r.ok) await cache.put(ref, r);
    }),
  );
}

async function cacheShell(): Promise<void> {
  const cache = await caches.open(SHELL);
  // The board too: a kiosk that registered the worker comes back on a reload while the box is away.
  await Promise.all([cachePage(cache, "/"), cachePage(cache, "/board")]);
}

self.addEventListener("install", (e) => {
  e.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  // An older worker's copy of the app (it could hold a page that was not the app) goes.
  e.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith("parkd-shell-") && k !== SHELL).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

async function networkFirst(
  request: Request,
  cacheName: string,
  key: string,
  stamp: boolean,
  waitMs = NETWORK_WAIT_MS,
  keepGoing?: (p: Promise<unknown>) => void,
): Promise<Response> {
  const cache = await caches.open(cacheName);
  const kept = await cache.match(key);
  const keep = async (res: Response) => {
    if (!res.ok) return;
    if (stamp) {
      const headers = new Headers(res.headers);
      headers.set(SAVED_AT, String(Date.now()));
      await cache.put(key, new Response(await res.clone().arrayBuffer(), { status: 200, headers }));
    } else await cache.put(key, res.clone());
  };
  if (!kept) {
    const res = await fetch(request);
    await keep(res);
    return res;
  }
  // A frozen box holds the request open without answering: past a few seconds the kept copy is
  // served, so the app still opens on a handheld whose box hangs. The request goes on (the page
  // only, `keepGoing`), so a box merely slow still renews the kept copy for the next time.
  const fetched = fetch(request, keepGoing ? undefined : { signal: AbortSignal.timeout(waitMs) }).then(
    async (res) => {
      await keep(res);
      return res;
    },
  );
  keepGoing?.(fetched.catch(() => {}));
  const late = new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs));
  const first = await Promise.race([fetched.catch(() => null), late]);
  return first ?? kept;
}

/** A file that never changes under its address: kept, else fetched and kept. */
async function keptFirst(request: Request, key: string): Promise<Response> {
  const cache = await caches.open(SHELL);
  const hit = await cache.match(key);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) await cache.put(key, res.clone());
  return res;
}

/** A reader file never changes under its tag: kept, else fetched, kept, and another tag's files let go. */
async function readerFile(request: Request, path: string, tag: string): Promise<Response> {
  const cache = await caches.open(READER);
  const hit = await cache.match(path);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok) {
    await cache.put(path, res.clone());
    for (const old of await cache.keys())
      if (!new URL(old.url).pathname.startsWith(tag)) await cache.delete(old);
  }
  return res;
}

self.addEventListener("fetch", (e) => {
  const request = e.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // The app's own pages only, each under its own key: any other page opened on this origin
  // (/healthz, /docs, an API answer) goes to the network and is never kept as the app.
  if (url.pathname === "/" || url.pathname === "/board") {
    e.respondWith(networkFirst(request, SHELL, url.pathname, false, PAGE_WAIT_MS, (p) => e.waitUntil(p)));
    return;
  }
  if (/^\/(app\.js|app\.css|board\.js|board\.css|manifest\.webmanifest|icon\.svg)$/.test(url.pathname)) {
    // A file named with its version (?v=, the hash of its bytes) never changes: the kept copy
    // answers at once, with no wait on a box that may be frozen.
    if (url.searchParams.has("v")) e.respondWith(keptFirst(request, url.pathname + url.search));
    else e.respondWith(networkFirst(request, SHELL, url.pathname + url.search, false));
    return;
  }
  if (ZONE_LIST.test(url.pathname)) {
    e.respondWith(networkFirst(request, ZONE_CACHE, url.pathname, true));
    return;
  }
  const reader = READER_FILE.exec(url.pathname);
  if (reader) e.respondWith(readerFile(request, url.pathname, reader[1]!));
});
