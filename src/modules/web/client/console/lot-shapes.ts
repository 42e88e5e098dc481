/** What the lots page reads from the box (GET /api/v1/parkings, /quote). */

export interface Lot {
  id: number;
  name: string;
  number_of_spaces: number;
  zone_number: number;
  max_time: number;
  max_fee: number;
  active: boolean;
  parking_lot_fee: Record<string, unknown>[];
  variable_fees: Record<string, unknown>[];
  parking_lot_open: Record<string, unknown>[];
  parking_lot_location: Record<string, unknown>[];
}

export interface Quote {
  data: {
    amount_incl_vat: number;
    currency_code: string;
    capped_by_max_fee: boolean;
    exceeds_max_time: boolean;
  };
}
