/** Amounts in the console, read and checked without the DOM (tested directly). */

/**
 * Amounts as people type them: `12`, `12,50` or `12.50` (either decimal mark, in either page
 * language), at most two decimals, no thousands separators. A number input would read `12,50` as
 * 1250 in some browsers; a text field read here cannot.
 */
const MONEY = /^\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/;

/** The largest amount the box stores (öre): 10 000 000 kr. */
export const MAX_MONEY = 1_000_000_000;

/** Öre (hundredths) from the text, or null when it is not an amount the box takes. */
export function parseMoney(text: string): number | null {
  const m = MONEY.exec(text);
  if (!m) return null;
  const ore = Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"));
  return ore <= MAX_MONEY ? ore : null;
}

/**
 * The fees that cost more than 100 times the lot's cheapest other fee: most likely a decimal
 * mark lost on the way (1250 for 12,50), so the console asks before saving them.
 */
export function outlierFees(costs: readonly number[]): number[] {
  return costs.filter((c, i) => {
    const others = costs.filter((o, k) => k !== i && o > 0);
    return others.length > 0 && c > 100 * Math.min(...others);
  });
}
