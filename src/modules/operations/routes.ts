import { createHash, timingSafeEqual } from "node:crypto";
import { Elysia } from "elysia";
import type { ApiContract } from "../../platform/http/api-contract.ts";
import { authenticate } from "../../platform/http/auth.ts";
import { trimOws } from "../../platform/http/http1.ts";
import { rateLimitOption } from "../../platform/http/rate-limit.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { bodyResponse, type KeptBody, keptBody } from "../../platform/http/shared-body.ts";
import { VERSION } from "../../version.ts";
import { operationsContract, operationsOperations } from "./contract.ts";
import type { OperationsDeps } from "./deps.ts";
import { renderDocsPage } from "./docs-page.ts";
import { buildOpenApi, type RouteInfo } from "./openapi.ts";

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Constant-time: the comparison takes as long whatever the token sent. */
export function isMetricsToken(expected: string | undefined, header: string | null): boolean {
  if (!expected || !header) return false;
  const m = /^Bearer[ \t]+(.+)$/i.exec(trimOws(header));
  if (!m) return false;
  return timingSafeEqual(digest(trimOws(m[1]!)), digest(expected));
}

/**
 * `/openapi.json` and `/docs` describe whatever app they are mounted in (`routesOf` is read on
 * each request, so routes added by other features are covered without a list here); `/metrics`
 * for the site's monitoring.
 */
export function operationsRoutes(
  ctx: OperationsDeps,
  routesOf: () => readonly RouteInfo[],
  contracts: readonly ApiContract[] = [],
) {
  let cached: { count: number; doc: Record<string, unknown>; json: KeptBody; html: KeptBody } | undefined;
  const documents = () => {
    const routes = routesOf();
    if (!cached || cached.count !== routes.length) {
      const doc = buildOpenApi(
        routes,
        {
          title: "parkd: parking ticket and permit service",
          version: VERSION,
          description:
            "Ticket event intake, permit lookups and parking lots for one site. Errors are RFC 9457 problem+json.",
        },
        [operationsContract, ...contracts],
      );
      // Written out and encoded once: the document is ~360 KB, too much to stringify per request,
      // and every request is written from the same bytes.
      const json = keptBody(JSON.stringify(doc));
      cached = { count: routes.length, doc, json, html: keptBody(renderDocsPage(doc)) };
    }
    return cached;
  };

  return new Elysia({ name: "operations" })
    .use(routeDeclaration)
    .use(rateLimitOption)
    .get(
      "/openapi.json",
      () => bodyResponse(documents().json, { "content-type": "application/json;charset=utf-8" }),
      {
        operation: operationsOperations.getOpenApiDocument,
        rateLimit: "address",
        detail: {
          summary: "This API as an OpenAPI 3.1 document",
          tags: ["operations"],
          responses: {
            200: {
              description: "The OpenAPI document",
              content: { "application/json": { schema: { type: "object" } } },
            },
          },
        },
      },
    )
    .get(
      "/docs",
      () =>
        bodyResponse(documents().html, {
          "content-type": "text/html; charset=utf-8",
          // Nothing on the page may come from anywhere but this box, and no other page may
          // frame it (clickjacking); X-Frame-Options for browsers that predate frame-ancestors.
          "content-security-policy":
            "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
          "x-frame-options": "DENY",
          "x-content-type-options": "nosniff",
          "referrer-policy": "no-referrer",
        }),
      {
        operation: operationsOperations.getReferencePage,
        rateLimit: "address",
        detail: {
          summary: "Readable API reference (rendered here; loads nothing from elsewhere)",
          tags: ["operations"],
          responses: {
            200: {
              description: "HTML page",
              content: {
                "text/html": {
                  schema: { type: "string" },
                  example:
                    '<!doctype html><html lang="en"><head><title>parkd API</title></head><body>…</body></html>',
                },
              },
            },
          },
        },
      },
    )
    .get(
      "/metrics",
      async ({ request }) => {
        if (!isMetricsToken(ctx.config.metricsToken, request.headers.get("authorization")))
          await authenticate(ctx.auth, request, { scope: "admin" });
        return new Response(ctx.metrics.render(), {
          headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" },
        });
      },
      {
        operation: operationsOperations.getMetrics,
        detail: {
          summary: "Prometheus metrics",
          description: "Bearer token with scope `admin`, or the token given to `serve --metrics-token`.",
          security: [{ bearer: [] }],
          "x-scope": "admin",
          tags: ["operations"],
          responses: {
            200: {
              description: "Prometheus text format 0.0.4",
              content: {
                "text/plain": {
                  schema: { type: "string" },
                  example:
                    '# HELP parkd_http_requests_total HTTP requests answered, by method, route template and status.\n# TYPE parkd_http_requests_total counter\nparkd_http_requests_total{method="GET",route="/api/v1/attendants/check-tickets",status="200"} 1042\n',
                },
              },
            },
          },
        } as Record<string, unknown>,
      },
    );
}
