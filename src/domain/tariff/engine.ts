/**
 * The tariff engine: what parking from `start` to `end` costs under a lot's fees, variable fees,
 * cap and time limit. Pure (no I/O, no clock). Shapes and codes are in model.ts; laying the
 * rules out on the site's wall clock is claims.ts.
 */
import { type Claim, claimsFor } from "./claims.ts";
import {
  type Charge,
  HOUR,
  MINUTE,
  type Pricing,
  type Site,
  type Tariff,
  type TariffQuote,
  UNIT_MS,
  type WindowFee,
} from "./model.ts";

export * from "./model.ts";

interface Stretch {
  from: number;
  to: number;
  source: Charge["source"];
  fee_id: number | null;
  type_of_day: number | null;
  pricing: Pricing | null;
}

/** Splits a day priced by variable fees into the steps by time parked since `start`. */
function stepStretches(claim: Claim, start: number): Stretch[] {
  const out: Stretch[] = [];
  const sorted = [...claim.steps!].sort((a, b) => a.from_minute - b.from_minute);
  for (const step of sorted) {
    const from = Math.max(claim.from, start + step.from_minute * MINUTE);
    const to = Math.min(claim.to, step.to_minute === null ? Infinity : start + step.to_minute * MINUTE);
    if (to <= from) continue;
    out.push({
      from,
      to,
      source: "variable_fee",
      fee_id: step.id,
      type_of_day: claim.type_of_day,
      // Steps have no rounding flag of their own: a step charges whole started units.
      pricing: { cost_per_unit: step.cost_per_unit, unit: step.unit, round: true },
    });
  }
  return out;
}

function feePricing(fee: WindowFee): Pricing {
  return { cost_per_unit: fee.cost_per_unit, unit: fee.unit, round: fee.round };
}

function samePricing(a: Pricing | null, b: Pricing | null): boolean {
  if (a === null || b === null) return a === b;
  return a.cost_per_unit === b.cost_per_unit && a.unit === b.unit && a.round === b.round;
}

export function chargeFor(
  pricing: Pricing | null,
  ms: number,
): { minutes: number; units: number; amount: number } {
  const minutes = Math.ceil(ms / MINUTE);
  if (pricing === null || ms <= 0) return { minutes, units: 0, amount: 0 };
  const unitMs = UNIT_MS[pricing.unit] ?? HOUR;
  if (pricing.round) {
    const units = Math.ceil(ms / unitMs);
    return { minutes, units, amount: units * pricing.cost_per_unit };
  }
  const units = (minutes * MINUTE) / unitMs;
  return { minutes, units, amount: Math.round(units * pricing.cost_per_unit) };
}

/** The price of parking from `start` to `end` (epoch ms, end >= start) under `tariff`. */
export function priceStay(tariff: Tariff, start: number, end: number, site: Site): TariffQuote {
  const stretches: Stretch[] = [];
  let at = start;
  /** Time up to `to` that no rule claimed is free. */
  const freeUntil = (to: number) => {
    if (to <= at) return;
    stretches.push({ from: at, to, source: "free", fee_id: null, type_of_day: null, pricing: null });
    at = to;
  };
  if (end > start) {
    for (const claim of claimsFor(tariff, start, end, site)) {
      const from = Math.max(claim.from, start);
      const to = Math.min(claim.to, end);
      if (to <= from) continue;
      const parts: Stretch[] = claim.steps
        ? stepStretches({ ...claim, from, to }, start)
        : [
            {
              from,
              to,
              source: "fee",
              fee_id: claim.fee!.id,
              type_of_day: claim.type_of_day,
              pricing: feePricing(claim.fee!),
            },
          ];
      for (const p of parts) {
        freeUntil(p.from);
        stretches.push(p);
        at = p.to;
      }
      freeUntil(to);
    }
    freeUntil(end);
  }
  const charges = merge(stretches);
  const before = charges.reduce((sum, c) => sum + c.amount, 0);
  const capped = tariff.max_fee > 0 && before > tariff.max_fee;
  return {
    amount: capped ? tariff.max_fee : before,
    amount_before_cap: before,
    capped_by_max_fee: capped,
    exceeds_max_time: tariff.max_time > 0 && end - start > tariff.max_time * 1000,
    charges,
  };
}

/**
 * Joins back-to-back stretches priced alike, so a unit is not started twice when only the day
 * changes (a same-price night across midnight is one stretch and is rounded once).
 */
function merge(stretches: Stretch[]): Charge[] {
  const out: Charge[] = [];
  let cur: (Stretch & { fee_ids: number[] }) | null = null;
  const flush = () => {
    if (!cur) return;
    const { minutes, units, amount } = chargeFor(cur.pricing, cur.to - cur.from);
    out.push({
      from: cur.from,
      to: cur.to,
      source: cur.source,
      fee_ids: cur.fee_ids,
      type_of_day: cur.type_of_day,
      pricing: cur.pricing,
      minutes,
      units,
      amount,
    });
  };
  for (const s of stretches) {
    if (cur && cur.to === s.from && cur.source === s.source && samePricing(cur.pricing, s.pricing)) {
      cur.to = s.to;
      if (s.fee_id !== null && !cur.fee_ids.includes(s.fee_id)) cur.fee_ids.push(s.fee_id);
      continue;
    }
    flush();
    cur = { ...s, fee_ids: s.fee_id === null ? [] : [s.fee_id] };
  }
  flush();
  return out;
}
