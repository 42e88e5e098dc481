import { describe, expect, test } from "bun:test";
import { plateFieldError } from "../../src/domain/plates.ts";

/** The permit and notice forms answer one field error for a plate that cannot be one. */
describe("plateFieldError", () => {
  test.each([
    ["ABC 123", null],
    ["åäö-1", null],
    ["", "A registration number needs letters or digits"],
    [" - . ", "A registration number needs letters or digits"],
    ["AB\u0000C1", "A registration number must not contain control characters"],
    ["\u001b", "A registration number must not contain control characters"],
  ] as const)("%j", (plate, message) => {
    expect(plateFieldError(plate)).toEqual(
      message === null ? null : { pointer: "/registration_number", message },
    );
  });
});
