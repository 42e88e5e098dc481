import { readFileSync } from "node:fs";
import { Elysia } from "elysia";
import { PLATE_READER_FILES } from "../../client/plate-reader/files.ts";
import { refuse } from "../../domain/errors.ts";
import { etagOf, withEtag } from "../../platform/http/conditional.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { webOperations } from "./contract.ts";
import { PlateReaderFileParams } from "./model.ts";
import { PLATE_READER_BASE } from "./plate-reader-base.ts";
import { PLATE_READER_PATHS } from "./plate-reader-files.ts";

/**
 * The worker compiles the engine's WebAssembly: its own policy allows that (`wasm-unsafe-eval`),
 * and nothing the page's does not: its scripts and fetches from this box only.
 */
const WORKER_POLICY = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";

const FILES = new Map(
  PLATE_READER_FILES.map((f) => {
    const path = PLATE_READER_PATHS[f.name];
    if (!path) throw new Error(`the plate reader's ${f.name} is not carried by this binary`);
    return [f.name, { path, type: f.type }];
  }),
);

/**
 * Each file's bytes, read at its first request and kept: sent from the one buffer and compressed
 * once per encoding (shared-body.ts), so no request makes the box compress 2.9 MB again. About
 * 8 MB once every file was asked for in both encodings; none before a handheld asks.
 */
const kept = new Map<string, { bytes: Uint8Array<ArrayBuffer>; etag: string }>();
function bytesOf(name: string, path: string): { bytes: Uint8Array<ArrayBuffer>; etag: string } {
  let file = kept.get(name);
  if (!file) {
    const bytes = new Uint8Array(readFileSync(path));
    file = { bytes, etag: etagOf(bytes) };
    kept.set(name, file);
  }
  return file;
}

/**
 * The plate reader's engine (src/client/plate-reader), carried in the binary and served from the
 * box alone, so a handheld reads plates with the box unreachable once it has them. Each build's
 * files live under its own tag and never change there: kept a year, and by the service worker.
 */
export function plateReaderRoutes() {
  return new Elysia({ name: "plate-reader" }).use(routeDeclaration).get(
    "/plate-reader/:tag/:name",
    ({ params, request }) => {
      const file = FILES.get(params.name);
      if (!file || `/plate-reader/${params.tag}/` !== PLATE_READER_BASE)
        throw refuse(
          "not-found",
          `No file ${params.name} in this build's plate reader (${PLATE_READER_BASE}); a page from an older build reloads to find it`,
        );
      const { bytes, etag } = bytesOf(params.name, file.path);
      return withEtag(request, etag, bytes, {
        "content-type": file.type,
        "cache-control": "public, max-age=31536000, immutable",
        "x-content-type-options": "nosniff",
        ...(file.type.startsWith("text/javascript") ? { "content-security-policy": WORKER_POLICY } : {}),
      });
    },
    {
      operation: webOperations.getPlateReaderFile,
      params: PlateReaderFileParams,
      detail: {
        summary: "A file of the handheld's plate reader (its worker, engine and model), for the app page",
        tags: ["web app"],
      },
    },
  );
}
