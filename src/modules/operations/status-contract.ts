import type { ApiContract, OperationContract } from "../../platform/http/api-contract.ts";
import { Status } from "./model.ts";

/** What the OpenAPI document says of /api/v1/status (api-contract.ts). */
export const statusContract: ApiContract = {
  named: {
    Status: {
      schema: Status,
      example: {
        data: {
          version: "0.1.0",
          uptimeSeconds: 86400,
          storeBytes: 52428800,
          diskFreeBytes: 21474836480,
          storeWritable: true,
          residentMemoryBytes: 96468992,
          activeTickets: 412,
          activePermits: 37,
          events: { lastMinute: 12, lastHour: 640, sinceStart: { TicketCreated: 5120, TicketStopped: 4980 } },
          terminals: [{ credential: "token:terminal-1", lastAt: "2026-06-15T09:12:40.000000Z" }],
          lookupsSinceStart: { registration_number: 2200, zone_list: 310 },
          authFailuresSinceStart: 3,
          requests: { total: 13000, clientErrors: 41, serverErrors: 0 },
          liveFeeds: 4,
          office: {
            site: "stockholm-centrum",
            central: "postgres://parkd@office.example:5432/parkd",
            reachable: true,
            pending_events: 0,
            oldest_pending_age_seconds: 0,
            last_push_at: "2026-06-15T09:12:41.000000Z",
            last_pull_at: "2026-06-15T09:12:30.000000Z",
            last_error: null,
            last_error_at: null,
            errors: { push: 0, pull: 0 },
            central_permits: 12,
          },
        },
      },
    },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const statusOperations = {
  getStatus: { operationId: "getStatus", tag: "operations" },
} satisfies Record<string, OperationContract>;
