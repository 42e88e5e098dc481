/**
 * The disk the store lives on, and what the box keeps free on it for ticket events: the reserve.
 * Photos are refused before they would eat into it; ticket intake may use it; retention deletes
 * the oldest records beyond a minimum of days when the room left falls to it. Pure: the figures
 * come from the disk (statfs) and the store (its free pages), the decisions are made here.
 */

const MB = 1_048_576;

/** What the disk and the store have room for. */
export interface DiskRoom {
  /** Free on the file system for parkd (statfs bavail). */
  freeBytes: number;
  /** Pages the store has freed and reuses before it grows (SQLite's freelist). */
  reusableBytes: number;
  /** Size of the file system. */
  sizeBytes: number;
}

/**
 * The reserve when none is set: a twentieth of the disk, at least 256 MB, at most 2 GB; and never
 * more than a quarter of a small disk (a 300 MB one keeps 75 MB).
 */
export function defaultReserveBytes(sizeBytes: number): number {
  const wanted = Math.min(2048 * MB, Math.max(256 * MB, Math.round(sizeBytes * 0.05)));
  return Math.min(wanted, Math.round(sizeBytes / 4));
}

/** What the store can still write: the disk's free space and the pages it reuses first. */
export function roomForRecords(room: DiskRoom): number {
  return room.freeBytes + room.reusableBytes;
}

/**
 * ample: more than twice the reserve left. near: within twice the reserve (said in the log, on
 * /readyz and in a metric before retention acts). at: at or under the reserve: retention deletes
 * the oldest records, down to the minimum of days.
 */
export type RoomState = "ample" | "near" | "at";

export function roomState(room: DiskRoom, reserveBytes: number): RoomState {
  // No reserve kept (--disk-reserve-mb 0): a full disk is the store's own trouble (503 on writes).
  if (reserveBytes <= 0) return "ample";
  const left = roomForRecords(room);
  if (left <= reserveBytes) return "at";
  if (left <= 2 * reserveBytes) return "near";
  return "ample";
}

/** A photo file of this many bytes leaves the reserve whole (photos never take the store's pages). */
export function photoFits(
  room: Pick<DiskRoom, "freeBytes">,
  photoBytes: number,
  reserveBytes: number,
): boolean {
  return room.freeBytes - photoBytes > reserveBytes;
}

/**
 * The days retention keeps while the room is at the reserve: one day fewer than the last run kept,
 * never fewer than the minimum; with room again (over 1.5 times the reserve) back to the setting.
 */
export function daysToKeep(
  state: RoomState,
  left: number,
  reserveBytes: number,
  kept: number,
  setting: { retentionDays: number; minDays: number },
): number {
  if (state === "at") return Math.max(setting.minDays, Math.min(kept, setting.retentionDays) - 1);
  if (left > 1.5 * reserveBytes) return setting.retentionDays;
  return Math.min(kept, setting.retentionDays);
}

export const mbOf = (bytes: number) => Math.round(bytes / MB);
