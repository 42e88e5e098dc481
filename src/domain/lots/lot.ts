import type { StepFee, WindowFee } from "../tariff/engine.ts";

/**
 * A parking lot as the domain knows it: the interface's ParkingLot record. The HTTP schema that
 * validates it (src/domain/lots/schema.ts) is checked against these types at compile time.
 */
export type LotFee = WindowFee;
export type LotVariableFee = StepFee;

export interface LotOpening {
  id: number;
  type_of_day: number;
  open_time: string;
  close_time: string;
}

export interface LotLocation {
  id: number;
  latitude: number;
  longitude: number;
}

export interface ParkingLot {
  id: number;
  name: string;
  number_of_spaces: number;
  zone_number: number;
  max_time: number;
  parking_lot_fee: LotFee[];
  variable_fees: LotVariableFee[];
  parking_lot_open: LotOpening[];
  parking_lot_location: LotLocation[];
  active: boolean;
  max_fee: number;
}

type WithoutId<T> = Omit<T, "id"> & { id?: number };

/** What creates, replaces and imports accept: ids optional, defaults filled in by completeLot. */
export interface LotInput {
  id?: number;
  name: string;
  zone_number: number;
  number_of_spaces?: number;
  max_time?: number;
  parking_lot_fee?: WithoutId<LotFee>[];
  variable_fees?: (Omit<WithoutId<LotVariableFee>, "to_minute"> & { to_minute?: number | null })[];
  parking_lot_open?: WithoutId<LotOpening>[];
  parking_lot_location?: WithoutId<LotLocation>[];
  active?: boolean;
  max_fee?: number;
}
