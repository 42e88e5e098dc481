import type { Session } from "./api-types.ts";

/** The session the page was started with (from the box, or remembered when it opened offline). */
let current: Session | null = null;

export function setSessionNow(s: Session | null): void {
  current = s;
}

export function sessionNow(): Session | null {
  return current;
}

/** The credential as the phone names it: whose waiting notices these are. */
export function ownerNow(): string | null {
  return current ? `${current.kind}:${current.name}` : null;
}
