import type { ApiContract, OperationContract } from "../../../platform/http/api-contract.ts";
import { OccupancyHistory, OccupancyNow } from "./model.ts";

const lot = {
  id: 12,
  name: "Storgatan",
  zone: 1234,
  spaces: 40,
  active: true,
  tickets: 31,
  free: 9,
  percent: 78,
};

/** What the OpenAPI document says of occupancy (api-contract.ts). */
export const occupancyContract: ApiContract = {
  named: {
    OccupancyNow: {
      schema: OccupancyNow,
      example: {
        at: "2026-06-15T10:00:00.000000Z",
        lots: [lot],
        zones: [{ zone: 1234, tickets: 33, permits: 4 }],
      },
    },
    OccupancyHistory: {
      schema: OccupancyHistory,
      example: {
        from: "2026-06-15T10:00:00.000000Z",
        to: "2026-06-15T10:15:00.000000Z",
        step: 5,
        at: ["2026-06-15T10:00:00.000000Z", "2026-06-15T10:05:00.000000Z", "2026-06-15T10:10:00.000000Z"],
        lots: [{ id: 12, name: "Storgatan", zone: 1234, spaces: 40, tickets: [31, 32, 30] }],
        zones: [{ zone: 1234, tickets: [33, 34, 32], permits: [4, 4, 4] }],
        arrivals: [2, 3, 0],
      },
    },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const occupancyOperations = {
  getOccupancy: {
    operationId: "getOccupancy",
    tag: "reports",
    ok: { 200: { description: "Occupancy now", schema: "OccupancyNow" } },
  },
  getOccupancyHistory: {
    operationId: "getOccupancyHistory",
    tag: "reports",
    examples: { from: "2026-06-15T06:00:00Z", to: "2026-06-15T10:00:00Z", step: "15" },
    ok: { 200: { description: "Counts at every step of the range", schema: "OccupancyHistory" } },
  },
} satisfies Record<string, OperationContract>;
