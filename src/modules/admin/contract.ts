import { LotFile, ParkingLotInput, ParkingLotPatch } from "../../domain/lots/schema.ts";
import type { ApiContract, OperationContract } from "../../platform/http/api-contract.ts";
import { ADMIN_EXAMPLES as EX } from "./contract-examples.ts";
import { WhoAmI } from "./credentials/model.ts";
import { ImportAnswer, ImportedLot, ImportReport } from "./lots/model.ts";
import {
  Permit,
  PermitEnvelope,
  PermitInput,
  PermitList,
  PermitPatch,
  PermitWindow,
} from "./permits/model.ts";
import { TicketEventView, TicketView } from "./tickets/model.ts";

const IF_MATCH = [
  {
    name: "If-Match",
    description:
      "The ETag of the version the change was made against: 412 when the record has changed since (RFC 9110 §13.1.1). Without it the write goes ahead",
  },
];
/** A write guarded by If-Match (412 is precondition-failed's), and the new version's ETag on success. */
const guarded = (ok: OperationContract["ok"]): Omit<OperationContract, "tag" | "operationId"> => ({
  headers: IF_MATCH,
  ok,
});

/** What the OpenAPI document says of the lot writes, permits, tickets and credentials (api-contract.ts). */
export const adminContract: ApiContract = {
  named: {
    ParkingLotInput: { schema: ParkingLotInput, example: EX.lotInput },
    ParkingLotPatch: { schema: ParkingLotPatch, example: { max_fee: 20000 } },
    LotFile: { schema: LotFile, example: { data: [EX.lotInput] } },
    ImportedLot: { schema: ImportedLot, example: EX.importReport.lots[1] },
    ImportReport: { schema: ImportReport, example: EX.importReport },
    ImportAnswer: { schema: ImportAnswer, example: { data: EX.importReport } },
    PermitWindow: { schema: PermitWindow, example: EX.permit.days[0] },
    Permit: { schema: Permit, example: EX.permit },
    PermitEnvelope: { schema: PermitEnvelope },
    PermitList: { schema: PermitList },
    PermitInput: { schema: PermitInput, example: EX.permitInput },
    PermitPatch: { schema: PermitPatch, example: { end_at: "2026-12-31T23:59:59+01:00" } },
    TicketEventRecord: { schema: TicketEventView, example: EX.ticket.events[0] },
    Ticket: { schema: TicketView.properties.data, example: EX.ticket },
    TicketEnvelope: { schema: TicketView },
    WhoAmI: { schema: WhoAmI, example: { kind: "token", name: "terminal-1", scopes: ["tickets:write"] } },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const adminOperations = {
  createParkingLot: {
    operationId: "createParkingLot",
    problems: ["lot-exists"],
    tag: "parking lots",
    ok: { 201: { description: "Created", schema: "ParkingLotEnvelope", headers: ["Location"] } },
  },
  importParkingLots: {
    operationId: "importParkingLots",
    tag: "parking lots",
    description:
      "The body is a file as `parkd lots export` writes it (what GET /api/v1/parkings answers). Each lot is reported by its index in `data` and its id as created, changed (naming the fields), unchanged or refused (with its errors). With `?dry_run=true` nothing is written; otherwise every created and changed lot is written in one transaction, or, when any lot is refused, none (400 with every error, its pointer from the file's root). A body that is no lot file (not an object with a `data` array and nothing else) is a 400, with a dry run too; a dry run answers 200 for a file whose lots break the schema, reporting each as refused: that is what it is for.",
    requestBody: {
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/LotFile" } } },
    },
    ok: { 200: { description: "What was (or, on a dry run, would be) written", schema: "ImportAnswer" } },
  },
  replaceParkingLot: {
    operationId: "replaceParkingLot",
    problems: ["precondition-failed", "lot-not-found"],
    tag: "parking lots",
    ...guarded({
      200: { description: "The lot as stored", schema: "ParkingLotEnvelope", headers: ["ETag"] },
    }),
  },
  updateParkingLot: {
    operationId: "updateParkingLot",
    problems: ["precondition-failed", "lot-not-found"],
    tag: "parking lots",
    ...guarded({
      200: { description: "The lot as stored", schema: "ParkingLotEnvelope", headers: ["ETag"] },
    }),
  },
  deleteParkingLot: {
    operationId: "deleteParkingLot",
    problems: ["precondition-failed", "lot-not-found"],
    tag: "parking lots",
    ...guarded({ 204: { description: "Deleted" } }),
  },
  createPermit: {
    operationId: "createPermit",
    tag: "permits",
    ok: { 201: { description: "Issued", schema: "PermitEnvelope", headers: ["Location"] } },
  },
  listPermits: { operationId: "listPermits", tag: "permits" },
  getPermit: {
    operationId: "getPermit",
    problems: ["permit-not-found"],
    tag: "permits",
    ok: { 200: { description: "The permit", schema: "PermitEnvelope", headers: ["ETag"] } },
  },
  replacePermit: {
    operationId: "replacePermit",
    problems: ["precondition-failed", "permit-not-found"],
    tag: "permits",
    ...guarded({
      200: { description: "The permit as stored", schema: "PermitEnvelope", headers: ["ETag"] },
    }),
  },
  updatePermit: {
    operationId: "updatePermit",
    problems: ["precondition-failed", "permit-not-found"],
    tag: "permits",
    ...guarded({
      200: { description: "The permit as stored", schema: "PermitEnvelope", headers: ["ETag"] },
    }),
  },
  deletePermit: {
    operationId: "deletePermit",
    problems: ["precondition-failed", "permit-not-found"],
    tag: "permits",
    ...guarded({ 204: { description: "Deleted" } }),
  },
  getTicket: {
    operationId: "getTicket",
    problems: ["ticket-not-found"],
    tag: "tickets",
  },
  getTicketByQuery: {
    operationId: "getTicketByQuery",
    problems: ["ticket-not-found"],
    tag: "tickets",
  },
  whoAmI: { operationId: "whoAmI", tag: "credentials" },
} satisfies Record<string, OperationContract>;
