import { Elysia } from "elysia";
import { etagOf, withEtag } from "../../platform/http/conditional.ts";
import { VERSION } from "../../version.ts";
import { clientAssets } from "./assets.macro.ts" with { type: "macro" };

/**
 * Only this box: no inline script or style, nothing from another origin, no framing. The
 * service worker and the manifest come from here too.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const assets = clientAssets();

const INDEX = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#101820">
<title>parkd</title>
<link rel="manifest" href="/manifest.webmanifest">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/app.css?v=${etagOf(assets.css).slice(1, -1)}">
<script type="module" src="/app.js?v=${etagOf(assets.appJs).slice(1, -1)}"></script>
</head>
<body>
<main id="app"><p class="boot">parkd</p></main>
<noscript>This page needs JavaScript.</noscript>
</body>
</html>
`;

/** The kiosk board (src/modules/web/client/board.ts): its own small page, no sign-in. */
const BOARD = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#0b0f14">
<title>Parking</title>
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/board.css?v=${etagOf(assets.boardCss).slice(1, -1)}">
<script type="module" src="/board.js?v=${etagOf(assets.boardJs).slice(1, -1)}"></script>
</head>
<body>
<main id="board" aria-live="polite"><h1 class="board-title">Parking</h1></main>
<noscript>This page needs JavaScript.</noscript>
</body>
</html>
`;

const MANIFEST = JSON.stringify({
  name: "parkd",
  short_name: "parkd",
  description: "Parking checks and the operator's console, from the box on site",
  start_url: "/",
  scope: "/",
  display: "standalone",
  background_color: "#101820",
  theme_color: "#101820",
  icons: [{ src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any maskable" }],
});

export interface Asset {
  path: string;
  type: string;
  body: string;
  etag: string;
  extra?: Record<string, string>;
}

export const FILES: Asset[] = [
  { path: "/", type: "text/html; charset=utf-8", body: INDEX },
  { path: "/app.js", type: "text/javascript; charset=utf-8", body: assets.appJs },
  { path: "/app.css", type: "text/css; charset=utf-8", body: assets.css },
  // The worker must come from the root to control every page; it may never be cached stale.
  {
    path: "/sw.js",
    type: "text/javascript; charset=utf-8",
    body: assets.swJs,
    extra: { "service-worker-allowed": "/" },
  },
  { path: "/manifest.webmanifest", type: "application/manifest+json", body: MANIFEST },
  { path: "/icon.svg", type: "image/svg+xml", body: assets.icon },
  { path: "/board", type: "text/html; charset=utf-8", body: BOARD },
  { path: "/board.js", type: "text/javascript; charset=utf-8", body: assets.boardJs },
  { path: "/board.css", type: "text/css; charset=utf-8", body: assets.boardCss },
].map((a) => ({ ...a, etag: etagOf(`${VERSION}\n${a.body}`) }));

const SECURITY_HEADERS = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

/** The web app's files, carried in the binary and revalidated by ETag. */
export function staticRoutes() {
  let app = new Elysia({ name: "web-static" });
  for (const a of FILES)
    app = app.get(
      a.path,
      ({ request }) =>
        withEtag(request, a.etag, a.body, { "content-type": a.type, ...SECURITY_HEADERS, ...a.extra }),
      {
        detail: {
          summary:
            a.path === "/"
              ? "The web app (attendant page and operator console)"
              : a.path === "/board"
                ? "The kiosk board (?lots=1,2): free spaces and the price per hour, live"
                : `Web app file ${a.path}`,
          tags: ["web app"],
        },
      },
    ) as typeof app;
  return app;
}
