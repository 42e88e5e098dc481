import { Type } from "@sinclair/typebox";
import { type Static, t } from "elysia";
import { ID_MAX } from "../../../domain/zones.ts";
import { wholeNumberParam } from "../../../platform/http/validation.ts";

/** The operators' lot models beyond the lot's own shapes (src/domain/lots/schema.ts). */

const Int = Type.Integer;
export const LotId = t.Object({ id: wholeNumberParam("id", "params", 1, ID_MAX) });
/** A lots file, taken as it comes: the import reads it lot by lot, to report each lot's errors. */
export const ImportFile = t.Unknown();
const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
const ImportFieldError = t.Object({ pointer: t.String(), message: t.String() });
export const ImportedLot = t.Object({
  index: Int({ description: "Place of the lot in the file's data array" }),
  id: Nullable(Int({ description: "The id it has or would have; null when it could not be read" })),
  name: Nullable(t.String()),
  outcome: t.UnionEnum(["created", "changed", "unchanged", "refused"]),
  changed_fields: t.Array(t.String(), { description: "Top-level fields that differ from the stored lot" }),
  errors: t.Array(ImportFieldError, {
    description: "Why a refused lot was refused; pointers inside the lot",
  }),
});
export const ImportReport = t.Object({
  dry_run: t.Boolean(),
  applied: t.Boolean({ description: "Whether the file was written (all of it); false on a dry run" }),
  created: Int(),
  changed: Int(),
  unchanged: Int(),
  refused: Int(),
  file_errors: t.Array(ImportFieldError, { description: "What is wrong around the lots" }),
  lots: t.Array(ImportedLot),
});
export type ImportReport = Static<typeof ImportReport>;
export const ImportAnswer = t.Object({ data: ImportReport });
export type ImportedLot = Static<typeof ImportedLot>;
export const ImportQuery = t.Object({
  dry_run: t.Optional(t.Boolean({ description: "true: check and report, write nothing" })),
});
