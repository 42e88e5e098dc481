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

/** A fee as the form holds it: its amount, its unit, and the stored amount it replaces (none: a new row). */
export interface FeeEdit {
  cost: number;
  unit: number;
  was: number | null;
}

/** Why a fee looks like a slipped decimal mark, and the amount it was measured against. */
export interface DoubtfulFee {
  cost: number;
  why: "raised" | "lowered" | "others";
  than: number;
}

/**
 * The fees to ask about before saving, most likely a decimal mark lost or added on the way (1250
 * for 12,50): a changed fee that is 10 times or more the amount it replaces, or a tenth or less of
 * it; else a changed or new fee that is 100 times or more the cheapest other fee of the lot in the
 * same unit (an hourly fee beside a monthly one differs that much by design). A fee saved as it
 * was is never asked about again, and free (0) is taken as meant: no ratio to or from nothing.
 */
export function doubtfulFees(fees: readonly FeeEdit[]): DoubtfulFee[] {
  const found: DoubtfulFee[] = [];
  fees.forEach((f, i) => {
    if (f.was === f.cost || f.cost <= 0) return;
    if (f.was !== null && f.was > 0 && (f.cost >= 10 * f.was || f.cost * 10 <= f.was)) {
      found.push({ cost: f.cost, why: f.cost > f.was ? "raised" : "lowered", than: f.was });
      return;
    }
    const others = fees.filter((o, k) => k !== i && o.unit === f.unit && o.cost > 0).map((o) => o.cost);
    const cheapest = Math.min(...others);
    if (others.length > 0 && f.cost >= 100 * cheapest)
      found.push({ cost: f.cost, why: "others", than: cheapest });
  });
  return found;
}
