import { t } from "elysia";
import { EXAMPLE_LOT as LOT } from "../../domain/lots/example.ts";
import {
  ParkingLot,
  ParkingLotFee,
  ParkingLotLocation,
  ParkingLotOpen,
  VariableFee,
} from "../../domain/lots/schema.ts";
import {
  type ApiContract,
  IF_NONE_MATCH,
  NOT_MODIFIED,
  type OperationContract,
} from "../../platform/http/api-contract.ts";
import { Quote, QuoteLine } from "./model.ts";

const QUOTE = {
  amount_incl_vat: 4000,
  currency_code: "SEK",
  capped_by_max_fee: false,
  exceeds_max_time: false,
  amount_before_cap: 4000,
  start: "2026-06-15T08:00:00.000000Z",
  end: "2026-06-15T10:00:00.000000Z",
  breakdown: [
    {
      from: "2026-06-15T08:00:00.000000Z",
      to: "2026-06-15T10:00:00.000000Z",
      amount: 4000,
      source: "fee",
      fee_ids: [1],
      type_of_day: 1,
      cost_per_unit: 2000,
      unit: 1,
      round: true,
      minutes: 120,
      units: 2,
    },
  ],
};

const envelope = (data: Parameters<typeof t.Object>[0][string]) => t.Object({ data });

/**
 * What the OpenAPI document says of the public lot reads and quotes (api-contract.ts). The lot's
 * shapes and refusals are declared here, once, for the operators' writes to name too.
 */
export const publicContract: ApiContract = {
  named: {
    ParkingLotFee: { schema: ParkingLotFee, example: LOT.parking_lot_fee[0] },
    VariableFee: { schema: VariableFee, example: LOT.variable_fees[0] },
    ParkingLotOpen: { schema: ParkingLotOpen, example: LOT.parking_lot_open[0] },
    ParkingLotLocation: { schema: ParkingLotLocation, example: LOT.parking_lot_location[0] },
    ParkingLot: { schema: ParkingLot, example: LOT },
    ParkingLotList: { schema: envelope(t.Array(ParkingLot)) },
    ParkingLotEnvelope: { schema: envelope(ParkingLot) },
    QuoteLine: { schema: QuoteLine, example: QUOTE.breakdown[0] },
    Quote: { schema: Quote.properties.data, example: QUOTE },
    QuoteEnvelope: { schema: Quote },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const publicOperations = {
  listParkingLots: {
    operationId: "listParkingLots",
    tag: "parking lots",
    ok: {
      200: {
        description: "Every lot (or only active/inactive ones)",
        schema: "ParkingLotList",
        headers: ["ETag"],
      },
      304: NOT_MODIFIED,
    },
    headers: IF_NONE_MATCH,
  },
  getParkingLot: {
    operationId: "getParkingLot",
    problems: ["lot-not-found"],
    tag: "parking lots",
    ok: {
      200: { description: "The lot", schema: "ParkingLotEnvelope", headers: ["ETag"] },
      304: NOT_MODIFIED,
    },
    headers: IF_NONE_MATCH,
  },
  quoteParkingLot: {
    operationId: "quoteParkingLot",
    problems: ["lot-not-found"],
    tag: "parking lots",
  },
} satisfies Record<string, OperationContract>;
