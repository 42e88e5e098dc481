import { describeFieldErrors, type FieldError, invalid, type Problem } from "../../../domain/errors.ts";
import type { ParkingLot } from "../../../domain/lots/lot.ts";
import { type LotFileReading, readLotFile } from "./file.ts";
import type { ImportedLot, ImportReport } from "./model.ts";

/** What an import file would do to the stored lots, lot by lot (nothing is written here). */
export interface ImportPlan {
  report: Omit<ImportReport, "dry_run" | "applied">;
  /** The lots to write (created or changed); empty when anything was refused. */
  writes: { lot: ParkingLot; exists: boolean }[];
}

const FIELDS_OF = (lot: ParkingLot) => Object.keys(lot) as (keyof ParkingLot)[];

/** Top-level fields whose values differ (arrays compared whole, as a PUT replaces them). */
function changedFields(stored: ParkingLot, next: ParkingLot): string[] {
  return FIELDS_OF(next).filter((k) => JSON.stringify(stored[k]) !== JSON.stringify(next[k]));
}

function nameOf(value: unknown): string | null {
  const name = (value as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : null;
}

/**
 * Compares a file with the stored lots: each lot is created (new id), changed (naming the
 * fields), unchanged, or refused (with its errors). One refusal anywhere, in a lot or around
 * them, means nothing is to be written.
 */
export function planImport(value: unknown, stored: readonly ParkingLot[], firstFreeId: number): ImportPlan {
  const reading: LotFileReading = readLotFile(value, firstFreeId);
  const byId = new Map(stored.map((l) => [l.id, l]));
  const items = (value as { data?: unknown[] } | null)?.data ?? [];
  const writes: ImportPlan["writes"] = [];
  const lots = reading.lots.map((read): ImportedLot => {
    const base = { index: read.index, id: read.id, name: read.lot?.name ?? nameOf(items[read.index]) };
    if (!read.lot) return { ...base, outcome: "refused", changed_fields: [], errors: read.errors };
    const current = byId.get(read.lot.id);
    if (!current) {
      writes.push({ lot: read.lot, exists: false });
      return { ...base, outcome: "created", changed_fields: [], errors: [] };
    }
    const fields = changedFields(current, read.lot);
    if (fields.length) writes.push({ lot: read.lot, exists: true });
    return { ...base, outcome: fields.length ? "changed" : "unchanged", changed_fields: fields, errors: [] };
  });
  const count = (o: ImportedLot["outcome"]) => lots.filter((l) => l.outcome === o).length;
  const refused = count("refused");
  return {
    report: {
      created: count("created"),
      changed: count("changed"),
      unchanged: count("unchanged"),
      refused,
      file_errors: reading.fileErrors,
      lots,
    },
    writes: refused || reading.fileErrors.length ? [] : writes,
  };
}

/** A refused import as one validation problem: every error, its pointer from the file's root. */
export function importRefusal(report: ImportReport): Problem {
  const errors: FieldError[] = [
    ...report.file_errors,
    ...report.lots.flatMap((l) => l.errors.map((e) => ({ ...e, pointer: `/data/${l.index}${e.pointer}` }))),
  ];
  const named = report.lots
    .filter((l) => l.outcome === "refused")
    .map((l) => `index ${l.index}${l.id !== null ? ` (id ${l.id})` : ""}`);
  const what = named.length
    ? `${named.length} lot(s) refused: ${named.join(", ")}`
    : describeFieldErrors(report.file_errors);
  return invalid(errors, `${what}; nothing was written`);
}
