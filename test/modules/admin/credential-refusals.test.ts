import { describe, expect, test } from "bun:test";
import { Problem } from "../../../src/domain/errors.ts";
import { call, expectProblem, testApp } from "../../support/app.ts";

/** What the credential service refuses, by type and field: the API's answer follows the type, never the words. */
describe("credential refusals carry their type", () => {
  const s = testApp();
  const refusal = async (f: () => unknown): Promise<Problem> => {
    try {
      await f();
    } catch (e) {
      if (e instanceof Problem) return e;
      throw e;
    }
    throw new Error("not refused");
  };

  test.each([
    ["no scope", () => s.credentials.createToken({ name: "a", scopes: [] }), "validation", "/scopes"],
    [
      "an unknown scope",
      () => s.credentials.createToken({ name: "a", scopes: ["root"] }),
      "validation",
      "/scopes",
    ],
    ["a bad name", () => s.credentials.createToken({ name: "-x", scopes: ["admin"] }), "validation", "/name"],
    [
      "no life",
      () => s.credentials.createToken({ name: "a", scopes: ["admin"], expiresInMs: 0 }),
      "validation",
      "/expires_in_days",
    ],
    [
      "a short password",
      () => s.credentials.createUser({ name: "u", scopes: ["admin"], password: "short" }),
      "validation",
      "/password",
    ],
    ["an unknown token", () => s.credentials.revokeToken("tok_nothing"), "credential-not-found", undefined],
    ["an unknown user", () => s.credentials.deleteUser("usr_nothing"), "credential-not-found", undefined],
  ] as const)("%s", async (_, f, type, pointer) => {
    const e = await refusal(f);
    expect(e.type).toBe(type);
    expect(e.errors?.[0]?.pointer).toBe(pointer as string);
  });

  test("the API answers by type: a name in use is 409, an unknown id 404, whatever the wording", async () => {
    const admin = s.token("admin");
    s.credentials.createToken({ name: "taken", scopes: ["permits:read"] });
    const again = await call(s.app, "POST", "/api/v1/tokens", {
      token: admin,
      body: { name: "taken", scopes: ["admin"] },
    });
    expectProblem(again, 409, "credential-exists");
    expectProblem(
      await call(s.app, "DELETE", "/api/v1/tokens/tok_000000000000", { token: admin }),
      404,
      "credential-not-found",
    );
    expectProblem(
      await call(s.app, "DELETE", "/api/v1/users/not-an-id", { token: admin }),
      404,
      "credential-not-found",
    );
  });
});
