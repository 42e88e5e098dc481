import type { ParkingLot } from "./lot.ts";

/**
 * One lot as the interface shows it: the example of the OpenAPI document's lot shapes (the
 * linters check it against them) and the lot the admin examples' inputs are made from.
 */
export const EXAMPLE_LOT: ParkingLot = {
  id: 12,
  name: "Storgatan garage",
  number_of_spaces: 120,
  zone_number: 1234,
  max_time: 86400,
  parking_lot_fee: [
    {
      id: 1,
      cost_per_unit: 2000,
      unit: 1,
      start_time: "08:00:00",
      end_time: "18:00:00",
      type_of_day: 1,
      round: true,
    },
  ],
  variable_fees: [{ id: 1, type_of_day: 2, from_minute: 0, cost_per_unit: 1500, unit: 1, to_minute: 120 }],
  parking_lot_open: [{ id: 1, type_of_day: 1, open_time: "06:00:00", close_time: "22:00:00" }],
  parking_lot_location: [{ id: 1, latitude: 59.3293, longitude: 18.0686 }],
  active: true,
  max_fee: 25000,
};
