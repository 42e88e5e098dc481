import { describe, expect, test } from "bun:test";
import { bodyResponse, keptBody, sharedBodyOf } from "../../src/platform/http/shared-body.ts";

describe("kept bodies: the answer's owner keeps a large one as its bytes, the front end writes every request from them", () => {
  test.each([
    ["empty", "", "text"],
    ["a plate's answer", '[{"registration_number":"ABC123"}]', "text"],
    ["one character short of shared", "x".repeat(16 * 1024 - 1), "text"],
    ["at the size shared from", "x".repeat(16 * 1024), "bytes"],
    ["multi-byte text", "Ö".repeat(20_000), "bytes"],
  ])("%s: kept as its %s, answered as the same text", async (_, text, kind) => {
    const body = keptBody(text);
    expect(typeof body === "string" ? "text" : "bytes").toBe(kind);
    const headers = { "content-type": "application/json" };
    const first = bodyResponse(body, headers);
    const second = bodyResponse(body, headers);
    if (kind === "bytes") {
      // Every response hands the front end the one buffer, not a copy of it.
      expect(sharedBodyOf(first)).toBe(body as Uint8Array<ArrayBuffer>);
      expect(sharedBodyOf(second)).toBe(body as Uint8Array<ArrayBuffer>);
      expect(first.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    } else expect(sharedBodyOf(first)).toBeUndefined();
    expect(await first.text()).toBe(text);
    expect(await second.text()).toBe(text);
  });
});
