import { describe, expect, test } from "bun:test";
import { mergeContracts } from "../../src/platform/http/api-contract.ts";
import { testApp } from "../support/app.ts";

describe("merging the modules' contracts", () => {
  test("an operation or a shape described twice is an error, not a silent overwrite", () => {
    const op = { operations: { "GET /x": { operationId: "getX", tag: "t" } } };
    expect(() => mergeContracts(op, op)).toThrow("operation GET /x is described twice");
    const named = { named: { Lot: { schema: {} } } };
    expect(() => mergeContracts(named, named)).toThrow("shape Lot is described twice");
  });

  test("the box's own contracts merge", () => {
    expect(() => mergeContracts(...testApp().contracts)).not.toThrow();
  });
});
