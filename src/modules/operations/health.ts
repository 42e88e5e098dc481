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
        const store = ctx.store;
        store.recoverWrites(ctx.now());
        // A real commit, so a full or read-only disk shows here before a terminal finds it. A
        // small one can still fit on a full disk (SQLite reuses its WAL's space) while every
        // event is refused; so once a write has failed, the probe is as large as the largest
        // request body, and readiness returns only when a write of that size commits again.
        try {
          if (store.writesFailing) {
            store.probe.commitLarge(ctx.now(), ctx.config.bodyLimit);
            store.noteWrite(true);
          } else store.probe.commit(ctx.now());
        } catch {
          throw problems.storeUnavailable(
            store.writesFailing
              ? `The store refused the latest write and cannot commit ${ctx.config.bodyLimit} bytes (disk full or read-only?)`
              : "The store cannot commit a write (disk full or read-only?)",
          );
        }
        return { status: "ok" as const };
      },
      { response: HealthStatus, detail: { summary: "The store accepts writes", tags: ["operations"] } },
    );
}
