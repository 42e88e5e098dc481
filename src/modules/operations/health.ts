import { Elysia, t } from "elysia";
import type { AppContext } from "../../context.ts";
import { problems } from "../../platform/http/problem.ts";

export const HealthStatus = t.Object({ status: t.Literal("ok") });

export function healthRoutes(ctx: AppContext) {
  return new Elysia({ name: "health" })
    .get("/healthz", () => ({ status: "ok" as const }), {
      response: HealthStatus,
      detail: { summary: "The process is up", tags: ["operations"] },
    })
    .get(
      "/readyz",
      () => {
        // A real commit, so a full or read-only disk shows here before a terminal finds it.
        try {
          ctx.store.probe.commit(ctx.now());
        } catch {
          throw problems.storeUnavailable("The store cannot commit a write");
        }
        return { status: "ok" as const };
      },
      { response: HealthStatus, detail: { summary: "The store accepts writes", tags: ["operations"] } },
    );
}
