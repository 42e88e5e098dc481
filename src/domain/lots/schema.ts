import { type Static, Type } from "@sinclair/typebox";
import { ID_MAX, ZONE_MAX } from "../zones.ts";
import type { ParkingLot as Lot, LotInput } from "./lot.ts";

/**
 * Shapes of a parking lot, one schema each for whoever reads or writes lots (the public reads,
 * the operators' writes, the CLI's files, the web client's types). The record (`ParkingLot`) is
 * what reads answer and what export writes; `ParkingLotInput` is what creates, replaces and
 * imports accept (ids optional, defaults filled); `ParkingLotPatch` is every input field
 * optional. Inputs reject unknown fields.
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
const TimeOfDay = Type.String({ pattern: "^(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$", description: "HH:MM:SS" });
const EndOfWindow = Type.String({
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
  round: Type.Boolean({ description: "true: whole started units; false: pro rata per started minute" }),
};
const variableFeeFields = {
  type_of_day: DayType,
  from_minute: Minute,
  cost_per_unit: Money,
  unit: Unit,
};
const ToMinute = Type.Union([Int({ minimum: 1, maximum: 100_000_000 }), Type.Null()], {
  description: "minutes parked when this step ends; null: no end",
});
const openFields = { type_of_day: DayType, open_time: TimeOfDay, close_time: EndOfWindow };
const locationFields = {
  latitude: Type.Number({ minimum: -90, maximum: 90, description: "WGS 84" }),
  longitude: Type.Number({ minimum: -180, maximum: 180, description: "WGS 84" }),
};

export const ParkingLotFee = Type.Object({ id: Id, ...feeFields });
export const VariableFee = Type.Object({ id: Id, ...variableFeeFields, to_minute: ToMinute });
export const ParkingLotOpen = Type.Object({ id: Id, ...openFields });
export const ParkingLotLocation = Type.Object({ id: Id, ...locationFields });

const ParkingLotFeeInput = Type.Object({ id: Type.Optional(Id), ...feeFields }, strict);
const VariableFeeInput = Type.Object(
  { id: Type.Optional(Id), ...variableFeeFields, to_minute: Type.Optional(ToMinute) },
  strict,
);
const ParkingLotOpenInput = Type.Object({ id: Type.Optional(Id), ...openFields }, strict);
const ParkingLotLocationInput = Type.Object({ id: Type.Optional(Id), ...locationFields }, strict);

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: "\\S" });
const Count = Int({ minimum: 0, maximum: MAX_INT, description: "0 = unlimited" });
const Zone = Int({ minimum: 0, maximum: ZONE_MAX });
const Seconds = Int({ minimum: 0, maximum: MAX_INT, description: "seconds; 0 = unlimited" });
const Cap = Int({ minimum: 0, maximum: 1_000_000_000, description: "öre incl. VAT; 0 = no cap" });
const many = <T extends Parameters<typeof Type.Array>[0]>(item: T) => Type.Array(item, { maxItems: 500 });

export const ParkingLot = Type.Object({
  id: Id,
  name: Type.String(),
  number_of_spaces: Count,
  zone_number: Zone,
  max_time: Seconds,
  parking_lot_fee: Type.Array(ParkingLotFee),
  variable_fees: Type.Array(VariableFee),
  parking_lot_open: Type.Array(ParkingLotOpen),
  parking_lot_location: Type.Array(ParkingLotLocation),
  active: Type.Boolean(),
  max_fee: Cap,
});

const optionalInputFields = {
  id: Type.Optional(Id),
  number_of_spaces: Type.Optional(Count),
  max_time: Type.Optional(Seconds),
  parking_lot_fee: Type.Optional(many(ParkingLotFeeInput)),
  variable_fees: Type.Optional(many(VariableFeeInput)),
  parking_lot_open: Type.Optional(many(ParkingLotOpenInput)),
  parking_lot_location: Type.Optional(many(ParkingLotLocationInput)),
  max_fee: Type.Optional(Cap),
};

/**
 * A lot left without `active` is active when created or replaced (completeLot fills it in). The
 * schema carries no `default`: Elysia would apply it to a PATCH too and switch an inactive lot back on.
 */
const Active = Type.Optional(
  Type.Boolean({ description: "absent on create or replace: true; on PATCH: unchanged" }),
);

export const ParkingLotInput = Type.Object(
  { ...optionalInputFields, active: Active, name: Name, zone_number: Zone },
  strict,
);
export const ParkingLotPatch = Type.Object(
  { ...optionalInputFields, active: Active, name: Type.Optional(Name), zone_number: Type.Optional(Zone) },
  strict,
);
/** The file `parkd lots import` reads and `parkd lots export` writes: what GET /api/v1/parkings answers. */
export const LotFile = Type.Object({ data: Type.Array(ParkingLotInput) }, strict);

export type ParkingLot = Static<typeof ParkingLot>;
export type ParkingLotInput = Static<typeof ParkingLotInput>;
export type ParkingLotPatch = Static<typeof ParkingLotPatch>;

// The schemas and the domain's types must describe one shape (a compile-time check).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const lotShapeMatches: Same<ParkingLot, Lot> = true;
export const lotInputShapeMatches: Same<ParkingLotInput, LotInput> = true;
