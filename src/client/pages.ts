import { attendantPage } from "./attendant.ts";
import { auditPage } from "./console/audit.ts";
import { changesPage } from "./console/changes.ts";
import { credentialsPage } from "./console/credentials.ts";
import { lotsPage } from "./console/lots.ts";
import { noticesPage } from "./console/notices.ts";
import { permitsPage } from "./console/permits.ts";
import { statusPage } from "./console/status.ts";
import { ticketsPage } from "./console/tickets.ts";
import { todayPage } from "./console/today.ts";
import type { t } from "./i18n.ts";
import { setupPage } from "./setup.ts";

/**
 * A page draws itself in `root`; it calls `sessionLost` when the box answers 401. `item` is what
 * the address names past the page (`#/tickets/ID`): every page and record can be bookmarked.
 */
type Page = (root: HTMLElement, sessionLost: () => void, item?: string) => (() => void) | undefined;

export const CONSOLE: [string, Parameters<typeof t>[0], Page][] = [
  ["check", "attendant", attendantPage],
  ["today", "today", todayPage],
  ["lots", "lots", lotsPage],
  ["permits", "permits", permitsPage],
  ["tickets", "tickets", ticketsPage],
  ["notices", "notices", noticesPage],
  ["credentials", "credentials", credentialsPage],
  ["audit", "audit", auditPage],
  ["status", "status", statusPage],
  ["changes", "changes", changesPage],
  ["setup", "handhelds", setupPage],
];
