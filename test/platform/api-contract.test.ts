import { describe, expect, test } from "bun:test";
import { mergeContracts } from "../../src/platform/http/api-contract.ts";
import { testApp } from "../support/app.ts";

describe("merging the modules' contracts", () => {
  test("a shape described twice is an error, not a silent overwrite", () => {
    const named = { named: { Lot: { schema: {} } } };
    expect(() => mergeContracts(named, named)).toThrow("shape Lot is described twice");
  });

  test("the box's own contracts merge", () => {
    expect(() => mergeContracts(...testApp().contracts)).not.toThrow();
  });
});
