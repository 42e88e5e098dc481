import { describe, expect, test } from "bun:test";
import { outlierFees, parseMoney } from "../../../src/modules/web/client/console/amounts.ts";

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

  test("a fee over 100 times the lot's cheapest other fee stands out; one fee alone never does", () => {
    expect(outlierFees([125_000, 500, 1_000])).toEqual([125_000]);
    expect(outlierFees([50_000, 500])).toEqual([]);
    expect(outlierFees([50_001, 500])).toEqual([50_001]);
    expect(outlierFees([125_000])).toEqual([]);
    expect(outlierFees([125_000, 0])).toEqual([]);
  });
});

test("nothing past the largest amount the box stores (10 000 000 kr) is an amount", () => {
  expect(parseMoney("10000000")).toBe(1_000_000_000);
  expect(parseMoney("10000000,01")).toBeNull();
  expect(parseMoney("999999999,99")).toBeNull();
});
