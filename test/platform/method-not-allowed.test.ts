import { describe, expect, test } from "bun:test";
import { call, expectProblem, testApp } from "../support/app.ts";

describe("a wrong method on a known route", () => {
  const s = testApp();
  const admin = s.token("admin");

  test("is 405 problem+json with Allow listing the route's methods", async () => {
    const cases: [string, string, string[]][] = [
      ["DELETE", "/healthz", ["GET", "HEAD"]],
      ["PUT", "/api/v1/actions/tickets", ["POST"]],
      ["GET", "/api/v1/actions/tickets", ["POST"]],
      ["POST", "/api/v1/parkings/17", ["DELETE", "GET", "HEAD", "PATCH", "PUT"]],
      ["DELETE", "/api/v1/parkings", ["GET", "HEAD", "POST"]],
      ["POST", "/api/v1/tickets/zone/1234", ["GET", "HEAD"]],
      ["TRACE", "/api/v1/permits/abc/", ["DELETE", "GET", "HEAD", "PATCH", "PUT"]],
    ];
    for (const [method, path, allowed] of cases) {
      const res = await call(s.app, method, path, { token: admin });
      const p = expectProblem(res, 405, "method-not-allowed");
      const allow = (res.headers.get("allow") ?? "").split(", ").sort();
      expect(allow, `${method} ${path}`).toEqual(allowed);
      expect(p.detail).toContain(method);
    }
  });

  test("is counted under the route's template, not as unmatched", async () => {
    await call(s.app, "POST", "/api/v1/parkings/5/quote");
    expect(s.ctx.metrics.render()).toContain(
      'parkd_http_requests_total{method="POST",route="/api/v1/parkings/:id/quote",status="405"}',
    );
  });

  test("an unknown route stays 404", async () => {
    expectProblem(await call(s.app, "GET", "/api/v1/nothing"), 404, "not-found");
    expectProblem(await call(s.app, "DELETE", "/api/v1/parkings/1/2/3"), 404, "not-found");
  });
});
