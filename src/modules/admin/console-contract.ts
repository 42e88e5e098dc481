import type { ApiContract, OperationContract } from "../../platform/http/api-contract.ts";
import { ChangePage, OperatorChange } from "./changes/model.ts";
import { NewToken, TokenInput, TokenList, UserEnvelope, UserInput, UserList } from "./credentials/model.ts";
import { LookupPage } from "./lookups/model.ts";
import { MAX_CSV_TICKETS } from "./tickets/csv.ts";
import { TicketPage } from "./tickets/model.ts";

const token = {
  id: "tok_3f9a1c22b7e4",
  name: "handheld-1",
  scopes: ["permits:read"],
  created_at: "2026-06-15T08:00:00.000000Z",
  last_used_at: "2026-06-15T09:12:40.000000Z",
  expires_at: null,
  revoked_at: null,
};
const user = {
  id: "usr_8c41d0e5a913",
  name: "terminal-2",
  scopes: ["tickets:write"],
  created_at: "2026-06-15T08:00:00.000000Z",
  last_used_at: null,
};

const OPERATOR_CHANGE = {
  id: 42,
  at: "2026-06-15T09:14:02.000000Z",
  actor: "user:anna",
  via: "console",
  subject: "lot",
  subject_id: "3",
  action: "update",
  before: { name: "Hamnen", number_of_spaces: 120 },
  after: { name: "Hamnen Syd", number_of_spaces: 110 },
};

/** What the OpenAPI document says of the console's admin routes (api-contract.ts). */
export const adminConsoleContract: ApiContract = {
  named: {
    TokenInput: {
      schema: TokenInput,
      example: { name: "handheld-1", scopes: ["permits:read"], expires_in_days: 365 },
    },
    TokenList: { schema: TokenList, example: { data: [token] } },
    NewToken: {
      schema: NewToken,
      example: {
        data: {
          id: token.id,
          name: token.name,
          scopes: token.scopes,
          expires_at: "2027-06-15T08:00:00.000000Z",
          token: "pk_Qm9vdHN0cmFwIHRva2VuIGV4YW1wbGUgb25seQ",
        },
      },
    },
    UserInput: {
      schema: UserInput,
      example: { name: "terminal-2", scopes: ["tickets:write"], password: "correct horse battery staple" },
    },
    UserList: { schema: UserList, example: { data: [user] } },
    UserEnvelope: { schema: UserEnvelope, example: { data: user } },
    TicketPage: {
      schema: TicketPage,
      example: {
        data: [
          {
            ticket_id: "100234",
            state: "active",
            status: "running",
            zone: 1234,
            parking_lot_id: 12,
            lot_name: "Hamnen",
            license_number: "ABC123",
            start_at: "2026-06-15T08:00:00.000000Z",
            end_at: "2026-06-15T10:00:00.000000Z",
            amount_incl_vat: 4000,
            currency_code: "SEK",
            updated_at: "2026-06-15T08:00:01.000000Z",
          },
        ],
        total: 1,
        next_cursor: "WyJ0aWNrZXRzIiwiLXN0YXJ0X2F0IiwxNzgxNTEwNDAwMDAwLDEwMDIzNF0",
      },
    },
    LookupPage: {
      schema: LookupPage,
      example: {
        data: [
          {
            at: "2026-06-15T09:12:40.000000Z",
            credential: "token:handheld-1",
            by: "zone_list",
            query: "1234",
            results: 37,
            verdict: null,
            camera_read: null,
          },
          {
            at: "2026-06-15T09:14:02.000000Z",
            credential: "token:handheld-1",
            by: "verdict",
            query: "ABC123@1234",
            results: 1,
            verdict: "valid_here",
            camera_read: "ABC128",
          },
        ],
        next_cursor: null,
      },
    },
    OperatorChange: { schema: OperatorChange, example: OPERATOR_CHANGE },
    ChangePage: { schema: ChangePage, example: { data: [OPERATOR_CHANGE], next_cursor: null } },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const adminConsoleOperations = {
  listTokens: { operationId: "listTokens", tag: "credentials" },
  createToken: {
    operationId: "createToken",
    problems: ["credential-exists"],
    tag: "credentials",
  },
  revokeToken: {
    operationId: "revokeToken",
    problems: ["credential-not-found"],
    tag: "credentials",
    examples: { id: "tok_3f9a1c22b7e4" },
    ok: { 204: { description: "Revoked" } },
  },
  listUsers: { operationId: "listUsers", tag: "credentials" },
  createUser: {
    operationId: "createUser",
    problems: ["credential-exists"],
    tag: "credentials",
  },
  deleteUser: {
    operationId: "deleteUser",
    problems: ["credential-not-found"],
    tag: "credentials",
    examples: { id: "usr_3f9a1c22b7e4" },
    ok: { 204: { description: "Deleted" } },
  },
  searchTickets: { operationId: "searchTickets", tag: "tickets", examples: { sort: "-start_at" } },
  exportTicketsCsv: {
    operationId: "exportTicketsCsv",
    tag: "tickets",
    examples: { sort: "-start_at" },
    description: `Every ticket the search finds (the filters and sort of GET /api/v1/tickets, no paging), at most ${MAX_CSV_TICKETS} (a bigger search is a 400: narrow it by time). \`se\` (default): Swedish headings, semicolons, decimal commas, a byte order mark, times as \`2026-06-15 12:00:00\`; \`rfc4180\`: snake_case headings, commas, decimal points, times as \`2026-06-15T12:00:00+02:00\`. Times in both are the site's, its time zone named in their headings (\`Start (Europe/Stockholm)\`). Text cells starting with = + - @ get a leading ' (CSV injection).`,
    ok: {
      200: {
        description: "The tickets as CSV (a download)",
        contentType: "text/csv",
        schema: { type: "string" },
      },
    },
  },
  listLookups: { operationId: "listLookups", tag: "attendant lookups" },
  listChanges: {
    operationId: "listChanges",
    tag: "changes",
    description:
      "Every write to lots, permits, tokens and users, through the API, the console or the CLI: who (the credential, or cli), when, through what, and the fields it changed, before and after (a create has no before, a delete no after). Filters: `subject` (and `subject_id` for one record's history), `actor`, and `from`/`to` (ISO 8601; a date alone is midnight, site time). Kept as long as lookup records (`--retention-days`).",
  },
} satisfies Record<string, OperationContract>;
