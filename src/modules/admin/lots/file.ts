import { Value } from "@sinclair/typebox/value";
import type { FieldError } from "../../../domain/errors.ts";
import { completeLot, lotRuleErrors } from "../../../domain/lots/rules.ts";
import { type ParkingLot, ParkingLotInput } from "../../../domain/lots/schema.ts";
import { ID_MAX } from "../../../domain/zones.ts";
import { schemaErrors } from "../../../platform/http/validation.ts";

/** One lot of an import file as read: complete when it passed every check, else its errors. */
export interface FileLot {
  /** Place in `data`. */
  index: number;
  /** The id it will have (its own, or the next free one); null when it could not be read. */
  id: number | null;
  lot: ParkingLot | null;
  /** JSON pointers inside the lot. */
  errors: FieldError[];
}

export interface LotFileReading {
  /** What is wrong with the file around the lots (not an object, no `data` array, unknown fields). */
  fileErrors: FieldError[];
  lots: FileLot[];
}

/** One thing wrong with an import file, located by lot (index in `data`, id if it has one) and field. */
export interface FileError {
  index: number | null;
  id: number | null;
  /** JSON pointer inside the lot (or inside the file when index is null). */
  pointer: string;
  message: string;
}

export function formatFileError(e: FileError): string {
  const where = e.index === null ? "file" : `lot at index ${e.index}${e.id !== null ? ` (id ${e.id})` : ""}`;
  return `${where}: ${e.pointer || "/"}: ${e.message}`;
}

const ownId = (value: unknown): number | null => {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === "number" && Number.isInteger(id) && id > 0 ? id : null;
};

function fileShapeErrors(value: unknown): FieldError[] {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return [{ pointer: "", message: "Expected an object {data: [lots]}, as 'parkd lots export' writes" }];
  const errors: FieldError[] = Object.keys(value)
    .filter((k) => k !== "data")
    .map((k) => ({ pointer: `/${k}`, message: "Unknown field" }));
  if (!Array.isArray((value as { data?: unknown }).data))
    errors.push({ pointer: "/data", message: "Expected an array of parking lots" });
  return errors;
}

/**
 * Reads an export file (`{data: [ParkingLot…]}`) lot by lot: each lot is checked on its own
 * (schema, then the lot rules), so every bad lot is named with all its errors. Lots without an
 * id get new ones from `firstFreeId` on (past every id in the file).
 */
export function readLotFile(value: unknown, firstFreeId: number): LotFileReading {
  const fileErrors = fileShapeErrors(value);
  const items = (value as { data?: unknown } | null)?.data;
  if (!Array.isArray(items)) return { fileErrors, lots: [] };
  let next = Math.max(firstFreeId, ...items.map((l) => (ownId(l) ?? 0) + 1));
  const seen = new Map<number, number>();
  const lots = items.map((item, index): FileLot => {
    const schema = schemaErrors(ParkingLotInput, item);
    if (schema.length) return { index, id: ownId(item), lot: null, errors: schema };
    const input = Value.Decode(ParkingLotInput, item);
    const lot = completeLot(input, input.id ?? next++);
    const errors: FieldError[] = [];
    // An id past the largest the API takes could never be read, changed or deleted again.
    if (lot.id > ID_MAX)
      errors.push({
        pointer: "/id",
        message: `No free lot id is left at or below ${ID_MAX}: give this lot an id that is free`,
      });
    const first = seen.get(lot.id);
    if (first !== undefined)
      errors.push({ pointer: "/id", message: `Duplicate lot id (also at index ${first})` });
    else seen.set(lot.id, index);
    errors.push(...lotRuleErrors(lot));
    return { index, id: lot.id, lot: errors.length ? null : lot, errors };
  });
  return { fileErrors, lots };
}
