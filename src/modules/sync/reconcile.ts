import type { SQL } from "bun";
import { log } from "../../platform/log.ts";
import { parsePhotoCursor, photoCursorValue, type SyncLocal } from "./local.ts";
import { officePositions } from "./office/pushes.ts";
import { checkSiteRole } from "./office/roles.ts";
import { checkCentralSchema } from "./office/schema.ts";

/**
 * What a push or a pull checks before its first round and after any failed one, so both say the
 * same thing when it is wrong: the schema is there and new enough, and the role logged in with
 * is this site's.
 */
export async function verifyOffice(sql: SQL, site: string): Promise<void> {
  await checkCentralSchema(sql);
  await checkSiteRole(sql, site);
}

/**
 * After a start or an outage: if the office has less than the cursors say (restored from an
 * older backup) the cursors go back; lots are sent again. If it has more than this store ever
 * handed out (the store restored from an older backup), new rows are numbered after the office's.
 * Returns the highest event seq that will be sent again (0: none).
 */
export async function reconcile(sql: SQL, local: SyncLocal, site: string, now: number): Promise<number> {
  const sentUpTo = local.position("events");
  const office = await officePositions(sql, site, local.boxId(now));
  const back: Record<string, string> = {};
  if (local.position("events") > office.events) back.events = String(office.events);
  if (local.position("lookups") > office.lookups) back.lookups = String(office.lookups);
  if (local.position("observations") > office.observations) back.observations = String(office.observations);
  if (local.position("notices") > office.notices) {
    back.notices = String(office.notices);
    back.photos = photosBack(local, office.notices);
  }
  back.lots = "";
  local.setCursors(back, now);
  if (back.events !== undefined)
    log("notice", "central sync: the office has fewer events than sent; sending again", {
      from: back.events,
    });
  // The office holds seqs and ids this box would hand out again, and would take the new rows for
  // the old ones.
  // A notice's number is printed on it: one handed out twice is two paper notices with one number.
  const own = local.lastIds();
  const theirs = {
    events: office.events,
    lookups: office.lookups,
    notices: office.notices,
    noticeNumber: office.noticeNumber,
    observations: office.observations,
  };
  if ((Object.keys(theirs) as (keyof typeof theirs)[]).some((k) => own[k] < theirs[k])) {
    local.continueAfter(theirs);
    log("notice", "central sync: the office has rows this store lost; new ones are numbered after them", {
      events: office.events,
      lookups: office.lookups,
      notice_number: office.noticeNumber,
      observations: office.observations,
    });
  }
  // Events up to here go out again.
  return back.events === undefined ? 0 : sentUpTo;
}

/**
 * The photo cursor when the notices' goes back to `notices`: the files of the notices sent again
 * go again too (the office skips the ones it holds).
 */
export function photosBack(local: SyncLocal, notices: number): string {
  const at = parsePhotoCursor(local.cursor("photos"));
  return photoCursorValue(at.seq > notices ? { seq: notices, hash: "" } : at);
}
