import type { AppConfig } from "../../config.ts";
import type { ApiContract } from "../../platform/http/api-contract.ts";
import type { AuthDeps } from "../../platform/http/auth.ts";
import type { Metrics } from "../../platform/metrics.ts";
import type { OpenStreams } from "../../platform/open-streams.ts";
import type { Store } from "../../platform/store/db.ts";
import type { RouteInfo } from "./openapi.ts";

/** Readiness probes the store's writes; status, retention and the summary read and trim the tables. */
export type OperationsStore = Pick<
  Store,
  | "probe"
  | "writesFailing"
  | "noteWrite"
  | "recoverWrites"
  | "tickets"
  | "ticketSearch"
  | "permits"
  | "lots"
  | "credentials"
  | "lookups"
  | "changes"
  | "observations"
  | "notices"
  | "photos"
  | "transaction"
  | "photoHashesNamed"
  | "room"
  | "reserveBytes"
>;

/** What the sync module tells of the office link (its SyncStatus has more). */
export interface OfficeLinkState {
  site: string;
  central: string;
  encrypted: boolean;
  reachable: boolean;
  pendingEvents: number;
  oldestPendingAgeSeconds: number;
  lastPushAt: number | null;
  lastPullAt: number | null;
  lastError: string | null;
  lastFault: "role-not-site" | "site-claimed" | "schema" | "unreachable" | null;
  lastErrorAt: number | null;
  errors: { push: number; pull: number };
  centralPermits: number;
  /** This box's clock minus the office's at the last pull (ms); null until one has read it. */
  clockSkewMs: number | null;
}

/** What the technicians' side needs from the box. */
export interface OperationsDeps {
  store: OperationsStore;
  now: () => number;
  config: Pick<AppConfig, "bodyLimit" | "metricsToken" | "retentionDays" | "retentionMinDays">;
  metrics: Metrics;
  /** How many live feeds are open (the status page). */
  openStreams: Pick<OpenStreams, "openReaders">;
  auth: AuthDeps;
  /** The office link's state, when the box has one (`serve --central`). */
  officeLink: () => OfficeLinkState | undefined;
  /** Every route of the app and what every module says of them, for /openapi.json and /docs. */
  routesOf: () => readonly RouteInfo[];
  contracts: readonly ApiContract[];
}
