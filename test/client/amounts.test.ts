import { describe, expect, test } from "bun:test";
import { doubtfulFees, parseMoney } from "../../src/client/console/amounts.ts";

describe("amounts as the console reads them", () => {
  test.each([
    ["12", 1200],
    ["12,50", 1250],
    ["12.50", 1250],
    ["12,5", 1250],
    [" 0,05 ", 5],
    ["0", 0],
    ["1250", 125000],
  ])("%p is %p öre", (text, ore) => {
    expect(parseMoney(text)).toBe(ore);
  });

  test.each(["", "12,", "12,505", "1 250", "1.250,00", "-5", "12e2", "0x10", "kr 12", "12,50 kr", "12..5"])(
    "%p is refused",
    (text) => {
      expect(parseMoney(text)).toBeNull();
    },
  );

  const fee = (cost: number, was: number | null = cost, unit = 1) => ({ cost, unit, was });

  test("a fee 100 times or more the lot's cheapest other fee in its unit stands out; one fee alone never does", () => {
    expect(doubtfulFees([fee(125_000, null), fee(500), fee(1_000)])).toEqual([
      { cost: 125_000, why: "others", than: 500 },
    ]);
    expect(doubtfulFees([fee(49_999, null), fee(500)])).toEqual([]);
    // Exactly 100 times is asked about: the guard's own example (12,50 typed as 1250).
    expect(doubtfulFees([fee(50_000, null), fee(500)])).toEqual([{ cost: 50_000, why: "others", than: 500 }]);
    expect(doubtfulFees([fee(125_000, null)])).toEqual([]);
    expect(doubtfulFees([fee(125_000, null), fee(0)])).toEqual([]);
    // A monthly fee beside an hourly one differs that much by design.
    expect(doubtfulFees([fee(300_000, null, 4), fee(2_000)])).toEqual([]);
  });

  test("a changed fee 10 times or more, or a tenth or less, of the amount it replaces stands out", () => {
    // All the lot's fees are 12,50 and one becomes 1250: 100 times what it replaces.
    expect(doubtfulFees([fee(125_000, 1_250), fee(1_250), fee(1_250)])).toEqual([
      { cost: 125_000, why: "raised", than: 1_250 },
    ]);
    expect(doubtfulFees([fee(12_500, 1_250)])).toEqual([{ cost: 12_500, why: "raised", than: 1_250 }]);
    expect(doubtfulFees([fee(12_499, 1_250)])).toEqual([]);
    expect(doubtfulFees([fee(125, 1_250)])).toEqual([{ cost: 125, why: "lowered", than: 1_250 }]);
    expect(doubtfulFees([fee(126, 1_250)])).toEqual([]);
    // A fee saved as it was is never asked about again, and free is meant either way.
    expect(doubtfulFees([fee(125_000), fee(1_250)])).toEqual([]);
    expect(doubtfulFees([fee(0, 1_250), fee(1_250, 0)])).toEqual([]);
  });
});

test("nothing past the largest amount the box stores (10 000 000 kr) is an amount", () => {
  expect(parseMoney("10000000")).toBe(1_000_000_000);
  expect(parseMoney("10000000,01")).toBeNull();
  expect(parseMoney("999999999,99")).toBeNull();
});
