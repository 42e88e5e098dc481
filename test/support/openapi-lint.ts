/**
 * The ecosystem's own OpenAPI linters, as libraries (no network, no telemetry): Redocly's
 * `recommended` rules and Spectral's `spectral:oas` ruleset. Each returns its findings; the
 * tests want no error from either.
 */
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Document, Spectral } from "@stoplight/spectral-core";
import { Json as JsonParser } from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";

export interface Finding {
  tool: "redocly" | "spectral";
  severity: "error" | "warn" | "info" | "hint";
  rule: string;
  message: string;
  where: string;
}

export async function redoclyLint(doc: unknown): Promise<Finding[]> {
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({
    source: JSON.stringify(doc),
    absoluteRef: "/openapi.json",
    config,
  });
  return problems.map((p) => ({
    tool: "redocly",
    severity: p.severity === "error" ? "error" : p.severity === "warn" ? "warn" : "info",
    rule: p.ruleId,
    message: p.message,
    where: p.location.map((l) => l.pointer ?? "").join(" "),
  }));
}

const SPECTRAL_SEVERITY = ["error", "warn", "info", "hint"] as const;

export async function spectralLint(doc: unknown): Promise<Finding[]> {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas as never, "recommended"]] } as never);
  const results = await spectral.run(new Document(JSON.stringify(doc, null, 2), JsonParser, "/openapi.json"));
  return results.map((r) => ({
    tool: "spectral",
    severity: SPECTRAL_SEVERITY[r.severity] ?? "error",
    rule: String(r.code),
    message: r.message,
    where: `#/${r.path.join("/")}`,
  }));
}
