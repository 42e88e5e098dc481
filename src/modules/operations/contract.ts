import { PROBLEMS, problemTypeUri } from "../../domain/problems.ts";
import type { ApiContract, OperationContract } from "../../platform/http/api-contract.ts";
import { HealthStatus, ProblemSchema } from "./model.ts";

/** Sections of the reference, in the order a terminal vendor reads them. */
export const TAGS = [
  { name: "ticket intake", description: "Terminals and parking apps send ticket events." },
  { name: "attendant lookups", description: "Handhelds ask whether a car may park." },
  { name: "parking lots", description: "Lots with their fees, opening hours and locations; quotes." },
  { name: "permits", description: "Operator-issued permits (admin)." },
  {
    name: "notices",
    description:
      "Control notices: issued from a handheld (notices:write), searched, voided and exported (admin).",
  },
  { name: "tickets", description: "Ticket search, and one ticket with every event received for it (admin)." },
  { name: "credentials", description: "Tokens and users (admin), and which credential a request carried." },
  { name: "reports", description: "Revenue and occupancy for the operator and the books (admin)." },
  {
    name: "changes",
    description: "The history of operator writes to lots, permits, tokens and users (admin).",
  },
  { name: "operations", description: "Health, metrics, status and this reference." },
  { name: "web app", description: "The pages served at / and the browser sessions they sign in with." },
];

/** What the OpenAPI document says of the operations routes (see src/platform/http/api-contract.ts). */
export const operationsContract: ApiContract = {
  named: {
    Problem: {
      schema: ProblemSchema,
      // What the box answers to `GET /api/v1/attendants/check-tickets?zone=abc`.
      example: {
        type: problemTypeUri("validation"),
        title: PROBLEMS.validation.title,
        status: PROBLEMS.validation.status,
        detail: "/zone: Expected a zone number from 0 to 2147483647 (an integer or a string of digits)",
        instance: "/api/v1/attendants/check-tickets",
        errors: [
          {
            pointer: "/zone",
            message: "Expected a zone number from 0 to 2147483647 (an integer or a string of digits)",
            in: "query",
          },
        ],
      },
    },
    HealthStatus: { schema: HealthStatus },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const operationsOperations = {
  getHealth: { operationId: "getHealth", tag: "operations", noStore: true },
  getReadiness: { operationId: "getReadiness", tag: "operations" },
  getMetrics: { operationId: "getMetrics", tag: "operations" },
  getOpenApiDocument: { operationId: "getOpenApiDocument", tag: "operations", noStore: true },
  getReferencePage: { operationId: "getReferencePage", tag: "operations", noStore: true },
} satisfies Record<string, OperationContract>;
