import { Elysia } from "elysia";
import { etagOf, withEtag } from "../../platform/http/conditional.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { keptBody } from "../../platform/http/shared-body.ts";
import { VERSION } from "../../version.ts";
import { clientAssets } from "./assets.macro.ts" with { type: "macro" };
import { fileOperation } from "./contract.ts";
import { PLATE_READER_BASE } from "./plate-reader-base.ts";

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

/** An address of a built file that changes with its bytes, so a new build is never served stale. */
const versioned = (path: string, bytes: string | Uint8Array) => `${path}?v=${etagOf(bytes).slice(1, -1)}`;

/** A page that is one script's shell: the script builds everything on it. */
function shell(page: {
  viewport: string;
  themeColor: string;
  title: string;
  /** The installable app names its manifest; the kiosk board is not installed. */
  manifest: boolean;
  /** The app's page names where its plate reader's files are. */
  plateReader?: string;
  css: string;
  js: string;
  main: string;
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="${page.viewport}">
<meta name="theme-color" content="${page.themeColor}">
<title>${page.title}</title>
${page.plateReader ? `<meta name="plate-reader" content="${page.plateReader}">\n` : ""}${page.manifest ? `<link rel="manifest" href="/manifest.webmanifest">\n` : ""}<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${page.css}">
<script type="module" src="${page.js}"></script>
</head>
<body>
${page.main}
<noscript>This page needs JavaScript.</noscript>
</body>
</html>
`;
}

const INDEX = shell({
  viewport: "width=device-width, initial-scale=1, viewport-fit=cover",
  themeColor: "#101820",
  title: "parkd",
  manifest: true,
  plateReader: PLATE_READER_BASE,
  css: versioned("/app.css", assets.css),
  js: versioned("/app.js", assets.appJs),
  main: `<main id="app"><p class="boot">parkd</p></main>`,
});

/** The kiosk board (src/client/board.ts): its own small page, no sign-in. */
const BOARD = shell({
  viewport: "width=device-width, initial-scale=1",
  themeColor: "#0b0f14",
  title: "Parking",
  manifest: false,
  css: versioned("/board.css", assets.boardCss),
  js: versioned("/board.js", assets.boardJs),
  main: `<main id="board" aria-live="polite"><h1 class="board-title">Parking</h1></main>`,
});

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

/** Each file's body as the front end sends it many times: the large ones as bytes, compressed once. */
const KEPT = new Map(FILES.map((a) => [a.path, keptBody(a.body)]));

const SECURITY_HEADERS = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

/** The web app's files, carried in the binary and revalidated by ETag. */
export function staticRoutes() {
  let app = new Elysia({ name: "web-static" }).use(routeDeclaration);
  for (const a of FILES)
    app = app.get(
      a.path,
      ({ request }) =>
        withEtag(request, a.etag, KEPT.get(a.path)!, {
          "content-type": a.type,
          ...SECURITY_HEADERS,
          ...a.extra,
        }),
      {
        operation: fileOperation(a),
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
