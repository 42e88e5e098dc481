import type { ApiContract, OperationContract } from "../../platform/http/api-contract.ts";
import { BoardView } from "./model.ts";

const board = {
  at: "2026-06-15T10:00:00.000000Z",
  currency: "SEK",
  lots: [
    { id: 12, name: "Storgatan", free: 9, full: false, price_per_hour: 2000 },
    { id: 13, name: "Hamnen", free: 0, full: true, price_per_hour: 1500 },
  ],
};

/** What the OpenAPI document says of the kiosk board (api-contract.ts). */
export const kioskContract: ApiContract = {
  named: { Board: { schema: BoardView, example: board } },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const kioskOperations = {
  getBoard: {
    operationId: "getBoard",
    tag: "parking lots",
    ok: { 200: { description: "The board's figures now", schema: "Board" } },
  },
  streamBoard: {
    operationId: "streamBoard",
    problems: ["too-many-boards"],
    tag: "parking lots",
    ok: {
      200: {
        description: "An event stream: `event: board` with the Board as data",
        contentType: "text/event-stream",
        schema: { type: "string" },
      },
    },
  },
} satisfies Record<string, OperationContract>;
