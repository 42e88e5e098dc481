import type { ConnectionGuard } from "./connection-guard.ts";

/**
 * A front end's close, once it has stopped accepting: answers still in flight go out (with
 * `connection: close`), idle connections are closed at once, and whatever is left after
 * `graceMs` is cut.
 */
export function drainConnections(guard: ConnectionGuard, graceMs: number): Promise<void> {
  const until = performance.now() + graceMs;
  return new Promise<void>((done) => {
    const check = () => {
      if (guard.closeIdle() || performance.now() >= until) {
        guard.closeAll();
        done();
      } else setTimeout(check, 25);
    };
    check();
  });
}
