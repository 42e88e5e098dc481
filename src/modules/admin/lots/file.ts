import { Value } from "@sinclair/typebox/value";
import { completeLot, lotRuleErrors } from "../../../domain/lots/rules.ts";
import { schemaErrors } from "../../../platform/http/validation.ts";
import { LotFile, type ParkingLot } from "./model.ts";

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

function idAt(value: unknown, index: number): number | null {
  const lot = (value as { data?: unknown[] } | null)?.data?.[index] as { id?: unknown } | undefined;
  return typeof lot?.id === "number" ? lot.id : null;
}

/**
 * Reads an export file (`{data: [ParkingLot…]}`) into complete lots, or says everything that is
 * wrong with it. Lots without an id get new ones from `firstFreeId` on.
 */
export function checkLotFile(
  value: unknown,
  firstFreeId: number,
): { lots: ParkingLot[] } | { errors: FileError[] } {
  const schema = schemaErrors(LotFile, value);
  if (schema.length) {
    return {
      errors: schema.map((e) => {
        const m = /^\/data\/(\d+)(\/.*)?$/.exec(e.pointer);
        if (!m) return { index: null, id: null, pointer: e.pointer, message: e.message };
        const index = Number(m[1]);
        return { index, id: idAt(value, index), pointer: m[2] ?? "", message: e.message };
      }),
    };
  }
  const file = Value.Decode(LotFile, value);
  let next = Math.max(firstFreeId, ...file.data.map((l) => (l.id ?? 0) + 1));
  const errors: FileError[] = [];
  const seen = new Map<number, number>();
  const lots = file.data.map((input, index) => {
    const lot = completeLot(input, input.id ?? next++);
    const first = seen.get(lot.id);
    if (first !== undefined)
      errors.push({
        index,
        id: lot.id,
        pointer: "/id",
        message: `Duplicate lot id (also at index ${first})`,
      });
    else seen.set(lot.id, index);
    for (const e of lotRuleErrors(lot)) errors.push({ index, id: lot.id, ...e });
    return lot;
  });
  return errors.length ? { errors } : { lots };
}
