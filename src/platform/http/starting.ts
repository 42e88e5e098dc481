/**
 * What the listener answers while `serve` prepares the store (an upgrade, the revenue book): it is
 * up within a moment of start, and says what it is doing instead of refusing connections. The
 * health routes answer 503 with the step and its progress; every other request 503
 * `/problems/starting`; all with Retry-After.
 */
import { refuse } from "../../domain/errors.ts";
import { formatMicros } from "../../domain/time/zoned.ts";
import type { StartingStep } from "../store/preparation.ts";
import { startingText } from "../store/preparation.ts";
import { problemContent } from "./problem.ts";

const RETRY_AFTER_SECONDS = 5;

/** The answer to a request that came while the store is being prepared. */
export function startingAnswer(request: Request, step: StartingStep | null, now: number): Response {
  const path = new URL(request.url).pathname;
  const words = step ? startingText(step, now) : "opening the store";
  const headers = { "retry-after": String(RETRY_AFTER_SECONDS), "cache-control": "no-store" };
  if (path === "/healthz" || path === "/readyz")
    return Response.json(
      {
        status: "starting",
        starting: step
          ? {
              step: step.step,
              of: step.of,
              what: step.what,
              progress: step.progress,
              since: formatMicros(step.since),
              started: formatMicros(step.started),
            }
          : null,
        detail: `the box is starting: ${words}`,
      },
      { status: 503, headers },
    );
  const p = problemContent(
    refuse("starting", `The box is starting: ${words}; try again shortly`, {
      retryAfterSeconds: RETRY_AFTER_SECONDS,
    }),
    path,
  );
  return new Response(request.method === "HEAD" ? null : p.body, {
    status: p.status,
    headers: { "content-type": p.contentType, ...p.headers, ...headers },
  });
}
