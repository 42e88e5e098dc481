import { invalid, refuse } from "../../domain/errors.ts";
import { normalizePlate, plateProblem } from "../../domain/plates.ts";
import { readWholeNumber, ZONE_MAX } from "../../domain/zones.ts";

export type LookupTarget = { by: "registration_number"; plateNorm: string } | { by: "zone"; zone: number };

/** Longer than any real plate, short enough to keep junk out of the lookup records (normalized). */
const MAX_PLATE = 32;

/**
 * Why a plate as sent is not one a lookup takes, or null: plateProblem's reasons, and a plate
 * that normalizes past MAX_PLATE (NFKC can lengthen it). The verdict and the offline checks alike.
 */
export function lookupPlateProblem(text: string): string | null {
  return (
    plateProblem(text) ??
    (normalizePlate(text).length > MAX_PLATE ? `has more than ${MAX_PLATE} characters` : null)
  );
}

function given(v: unknown): boolean {
  return v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "");
}

/**
 * What check-tickets is asked: exactly one of registration_number or zone, from the query string
 * or from a JSON body on the GET (the interface's own example). The same parameter in both
 * places must agree; empty strings and nulls count as not given.
 */
export function lookupTarget(query: Record<string, unknown>, body: unknown): LookupTarget {
  const fromBody: Record<string, unknown> = {};
  if (body !== undefined) {
    if (body === null || typeof body !== "object" || Array.isArray(body))
      throw invalid([{ pointer: "", message: "The body must be a JSON object" }]);
    Object.assign(fromBody, body);
  }
  const pick = (key: "registration_number" | "zone"): { value: unknown; in: "query" | "body" } | null => {
    const q = query[key];
    const b = fromBody[key];
    if (given(q) && given(b) && String(q).trim() !== String(b).trim())
      throw refuse(
        "bad-request",
        `${key} is given in both the query string and the body, with different values`,
        { errors: [{ pointer: `/${key}`, message: "Given twice with different values" }] },
      );
    if (given(q)) return { value: q, in: "query" };
    if (given(b)) return { value: b, in: "body" };
    return null;
  };
  const plate = pick("registration_number");
  const zone = pick("zone");
  if ((plate === null) === (zone === null))
    throw refuse(
      "lookup-parameters",
      plate
        ? "Give either registration_number or zone, not both"
        : "Give registration_number or zone, in the query string or in a JSON body",
    );
  if (plate) return { by: "registration_number", plateNorm: readPlate(plate.value, plate.in) };
  return { by: "zone", zone: readZone(zone!.value, zone!.in) };
}

function readPlate(value: unknown, where: "query" | "body", pointer = "/registration_number"): string {
  const text = typeof value === "string" ? value : "";
  if (lookupPlateProblem(text) !== null)
    throw invalid([
      {
        pointer,
        message: "Expected a registration number (letters and digits)",
        ...(where === "query" ? { in: "query" as const } : {}),
      },
    ]);
  return normalizePlate(text);
}

function readZone(value: unknown, where: "query" | "body"): number {
  // The same reading and range as every zone the service stores (readWholeNumber, ZONE_MAX).
  const n = readWholeNumber(value, 0, ZONE_MAX, true);
  if (n === null)
    throw invalid([
      {
        pointer: "/zone",
        message: `Expected a zone number from 0 to ${ZONE_MAX} (an integer or a string of digits)`,
        ...(where === "query" ? { in: "query" as const } : {}),
      },
    ]);
  return n;
}

/**
 * What the verdict is asked: a registration number and the zone the attendant stands in, both
 * required, in the query string.
 */
export function verdictTarget(query: Record<string, unknown>): {
  plateNorm: string;
  zone: number;
  cameraRead: string | null;
} {
  const missing = (["registration_number", "zone"] as const).filter((k) => !given(query[k]));
  if (missing.length > 0)
    throw invalid(missing.map((k) => ({ pointer: `/${k}`, message: "Required", in: "query" as const })));
  return {
    plateNorm: readPlate(query.registration_number, "query"),
    zone: readZone(query.zone, "query"),
    cameraRead: given(query.camera_read) ? readPlate(query.camera_read, "query", "/camera_read") : null,
  };
}

/** The plate whose earlier checks are asked for (required, read as a lookup's plate). */
export function checksTarget(query: Record<string, unknown>): string {
  if (!given(query.registration_number))
    throw invalid([{ pointer: "/registration_number", message: "Required", in: "query" as const }]);
  return readPlate(query.registration_number, "query");
}
