/**
 * Deterministic bench data shared by the generator and the load scripts (the Lua scripts
 * repeat plateOf), so that a scenario can name a ticket and know its plate without a lookup.
 */
export const ZONES = 200;
export const PLATES = 300_000;
export const LOTS = 500;

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export function plateOf(k: number): string {
  const digits = k % 1000;
  let n = Math.floor(k / 1000);
  const l3 = n % 26;
  n = Math.floor(n / 26);
  const l2 = n % 26;
  const l1 = Math.floor(n / 26) % 26;
  return `${LETTERS[l1]}${LETTERS[l2]}${LETTERS[l3]}${String(digits).padStart(3, "0")}`;
}

/** Ticket i's plate index: spread so that neighbouring ids have unrelated plates. */
export function plateIndexOfTicket(i: number): number {
  return (i * 7919) % PLATES;
}

export function zoneOfTicket(i: number): number {
  return 1000 + (i % ZONES);
}
