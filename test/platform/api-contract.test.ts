import { describe, expect, test } from "bun:test";
import { mergeContracts } from "../../src/platform/http/api-contract.ts";
import { testApp } from "../support/app.ts";

describe("merging the modules' contracts", () => {
  test("a problem type, an operation or a shape described twice is an error, not a silent overwrite", () => {
    const a = { problems: { gone: { status: 404, title: "Gone", detail: "x" } } };
    const b = { problems: { gone: { status: 410, title: "Gone for good", detail: "y" } } };
    expect(() => mergeContracts(a, b)).toThrow("problem type gone is described twice");
    expect(() =>
      mergeContracts({ problems: { validation: { status: 422, title: "V", detail: "v" } } }),
    ).toThrow("problem type validation is described twice");
    const op = { operations: { "GET /x": { operationId: "getX", tag: "t" } } };
    expect(() => mergeContracts(op, op)).toThrow("operation GET /x is described twice");
    const named = { named: { Lot: { schema: {} } } };
    expect(() => mergeContracts(named, named)).toThrow("shape Lot is described twice");
  });

  test("the box's own contracts merge: each problem type has one status and title", () => {
    expect(() => mergeContracts(...testApp().contracts)).not.toThrow();
  });
});
