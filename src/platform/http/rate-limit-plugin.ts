import { type DocumentDecoration, Elysia } from "elysia";
import type { RateLimits } from "./rate-limit.ts";

/** Whose bucket a route's requests draw on: public routes have no credential, so their address. */
export type RateLimitBy = "address";

/**
 * `{ rateLimit: "address" }` on a public route (lot reads, quotes, the kiosk board, handheld
 * setup, sign-in): each client address draws on its own token bucket, 429 past it, before the
 * handler runs. Routes with `auth` are limited per credential by the auth plugin instead.
 */
export function rateLimitPlugin(limits: RateLimits) {
  return new Elysia({ name: "rate-limit" }).macro({
    rateLimit: (by: RateLimitBy) => ({
      // What the OpenAPI document reads to declare the route's 429 (src/modules/operations).
      // An extension field, which Elysia's own type for `detail` does not name.
      detail: { "x-rate-limit": by } as DocumentDecoration,
      transform({ request }) {
        limits.forAddress(request);
      },
    }),
  });
}
