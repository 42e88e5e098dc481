import { Type } from "@sinclair/typebox";
import { type Static, t } from "elysia";
import type { ParkingLot as Lot, LotInput } from "../../../domain/lots/lot.ts";
import { ID_MAX, ZONE_MAX } from "../../../domain/zones.ts";
import { wholeNumberParam } from "../../../platform/http/validation.ts";

/**
 * Shapes of a parking lot. The record (`ParkingLot`) is what reads answer and what export writes;
 * `ParkingLotInput` is what creates, replaces and imports accept (ids optional, defaults filled);
 * `ParkingLotPatch` is every input field optional. Inputs reject unknown fields.
 *
 * Numbers are JSON integers only (TypeBox's Integer): Elysia's t.Integer would also read "0x10"
 * as 16 and "1e2" as 100, a reading no other part of the service shares.
 */

const MAX_INT = ID_MAX;
const Int = Type.Integer;
const strict = { additionalProperties: false } as const;

const Id = Int({ minimum: 1, maximum: MAX_INT });
const Money = Int({ minimum: 0, maximum: 1_000_000_000, description: "öre (cents) incl. VAT" });
const Unit = Int({ minimum: 1, maximum: 4, description: "1 = hour, 2 = day, 3 = week, 4 = month" });
const DayType = Int({
  minimum: 1,
  maximum: 3,
  description: "1 = weekday (Mon-Fri), 2 = Saturday, 3 = Sunday and public holidays",
});
const TimeOfDay = t.String({ pattern: "^(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$", description: "HH:MM:SS" });
const EndOfWindow = t.String({
  pattern: "^(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d|24:00:00)$",
  description:
    "HH:MM:SS; earlier than the start runs past midnight; 23:59:59 or 24:00:00 is the end of the day",
});
const Minute = Int({ minimum: 0, maximum: 100_000_000 });

const feeFields = {
  cost_per_unit: Money,
  unit: Unit,
  start_time: TimeOfDay,
  end_time: EndOfWindow,
  type_of_day: DayType,
  round: t.Boolean({ description: "true: whole started units; false: pro rata per started minute" }),
};
const variableFeeFields = {
  type_of_day: DayType,
  from_minute: Minute,
  cost_per_unit: Money,
  unit: Unit,
};
const ToMinute = t.Union([Int({ minimum: 1, maximum: 100_000_000 }), t.Null()], {
  description: "minutes parked when this step ends; null: no end",
});
const openFields = { type_of_day: DayType, open_time: TimeOfDay, close_time: EndOfWindow };
const locationFields = {
  latitude: t.Number({ minimum: -90, maximum: 90, description: "WGS 84" }),
  longitude: t.Number({ minimum: -180, maximum: 180, description: "WGS 84" }),
};

export const ParkingLotFee = t.Object({ id: Id, ...feeFields });
export const VariableFee = t.Object({ id: Id, ...variableFeeFields, to_minute: ToMinute });
export const ParkingLotOpen = t.Object({ id: Id, ...openFields });
export const ParkingLotLocation = t.Object({ id: Id, ...locationFields });

const ParkingLotFeeInput = t.Object({ id: t.Optional(Id), ...feeFields }, strict);
const VariableFeeInput = t.Object(
  { id: t.Optional(Id), ...variableFeeFields, to_minute: t.Optional(ToMinute) },
  strict,
);
const ParkingLotOpenInput = t.Object({ id: t.Optional(Id), ...openFields }, strict);
const ParkingLotLocationInput = t.Object({ id: t.Optional(Id), ...locationFields }, strict);

const Name = t.String({ minLength: 1, maxLength: 200, pattern: "\\S" });
const Count = Int({ minimum: 0, maximum: MAX_INT, description: "0 = unlimited" });
const Zone = Int({ minimum: 0, maximum: ZONE_MAX });
const Seconds = Int({ minimum: 0, maximum: MAX_INT, description: "seconds; 0 = unlimited" });
const Cap = Int({ minimum: 0, maximum: 1_000_000_000, description: "öre incl. VAT; 0 = no cap" });
const many = <T extends Parameters<typeof t.Array>[0]>(item: T) => t.Array(item, { maxItems: 500 });

export const ParkingLot = t.Object({
  id: Id,
  name: t.String(),
  number_of_spaces: Count,
  zone_number: Zone,
  max_time: Seconds,
  parking_lot_fee: t.Array(ParkingLotFee),
  variable_fees: t.Array(VariableFee),
  parking_lot_open: t.Array(ParkingLotOpen),
  parking_lot_location: t.Array(ParkingLotLocation),
  active: t.Boolean(),
  max_fee: Cap,
});

const optionalInputFields = {
  id: t.Optional(Id),
  number_of_spaces: t.Optional(Count),
  max_time: t.Optional(Seconds),
  parking_lot_fee: t.Optional(many(ParkingLotFeeInput)),
  variable_fees: t.Optional(many(VariableFeeInput)),
  parking_lot_open: t.Optional(many(ParkingLotOpenInput)),
  parking_lot_location: t.Optional(many(ParkingLotLocationInput)),
  max_fee: t.Optional(Cap),
};

/**
 * A lot left without `active` is active when created or replaced (completeLot fills it in). The
 * schema carries no `default`: Elysia would apply it to a PATCH too and switch an inactive lot back on.
 */
const Active = t.Optional(
  t.Boolean({ description: "absent on create or replace: true; on PATCH: unchanged" }),
);

export const ParkingLotInput = t.Object(
  { ...optionalInputFields, active: Active, name: Name, zone_number: Zone },
  strict,
);
export const ParkingLotPatch = t.Object(
  { ...optionalInputFields, active: Active, name: t.Optional(Name), zone_number: t.Optional(Zone) },
  strict,
);
/** The file `parkd lots import` reads and `parkd lots export` writes: what GET /api/v1/parkings answers. */
export const LotFile = t.Object({ data: t.Array(ParkingLotInput) }, strict);

export const LotId = t.Object({ id: wholeNumberParam("id", "params", 1, ID_MAX) });
export const ListQuery = t.Object({
  active: t.Optional(t.Boolean({ description: "true: active lots only; false: inactive only" })),
});
export const QuoteQuery = t.Object({
  start: t.String({ description: "ISO 8601; without an offset it is wall time in the site time zone" }),
  end: t.String({ description: "ISO 8601; not before start" }),
});

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(s: T) => t.Union([s, t.Null()]);
export const QuoteLine = t.Object({
  from: t.String(),
  to: t.String(),
  amount: Int(),
  source: t.UnionEnum(["fee", "variable_fee", "free"]),
  fee_ids: t.Array(Int()),
  type_of_day: Nullable(Int()),
  cost_per_unit: Nullable(Int()),
  unit: Nullable(Int()),
  round: Nullable(t.Boolean()),
  minutes: Int(),
  units: t.Number(),
});
export const Quote = t.Object({
  data: t.Object({
    amount_incl_vat: Int(),
    currency_code: t.String(),
    capped_by_max_fee: t.Boolean(),
    exceeds_max_time: t.Boolean(),
    amount_before_cap: Int(),
    start: t.String(),
    end: t.String(),
    breakdown: t.Array(QuoteLine),
  }),
});

export type ParkingLot = Static<typeof ParkingLot>;
export type ParkingLotInput = Static<typeof ParkingLotInput>;
export type ParkingLotPatch = Static<typeof ParkingLotPatch>;

// The schemas and the domain's types must describe one shape (a compile-time check).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const lotShapeMatches: Same<ParkingLot, Lot> = true;
export const lotInputShapeMatches: Same<ParkingLotInput, LotInput> = true;

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
