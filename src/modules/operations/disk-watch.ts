/**
 * The disk's room as retention, /readyz, the metrics and the log see it: read from the store
 * (the disk's free space and the store's reusable pages) against the reserve kept for ticket
 * events, and the days retention keeps while the disk is at that reserve. A change of state is
 * logged once, before retention acts ("near") and when it does ("at").
 */
import {
  type DiskRoom,
  daysToKeep,
  mbOf,
  type RoomState,
  roomForRecords,
  roomState,
} from "../../domain/disk-room.ts";
import { log } from "../../platform/log.ts";

export interface RoomReading {
  state: RoomState;
  room: DiskRoom;
  reserveBytes: number;
}

export interface RoomSource {
  room(): DiskRoom | null;
  readonly reserveBytes: number;
}

export class DiskWatch {
  private last: RoomReading | null = null;
  /** What the log last said: a state is said once, and "room again" only with a margin. */
  private told: RoomState = "ample";
  /** The days retention keeps now: the setting, or fewer while the disk is short of room. */
  daysKept: number;

  constructor(
    private readonly store: RoomSource,
    readonly setting: { retentionDays: number; minDays: number },
  ) {
    this.daysKept = setting.retentionDays;
  }

  /** The room now (null for a store in memory); a change of state is logged. */
  read(): RoomReading | null {
    const room = this.store.room();
    if (!room) return null;
    const reading = {
      state: roomState(room, this.store.reserveBytes),
      room,
      reserveBytes: this.store.reserveBytes,
    };
    this.tell(reading);
    this.last = reading;
    return reading;
  }

  /** The latest reading, without reading the disk again (for /readyz between runs). */
  get latest(): RoomReading | null {
    return this.last;
  }

  /** One day fewer while the disk is at the reserve; back to the setting once it has room. */
  settle(reading: RoomReading): number {
    this.daysKept = daysToKeep(
      reading.state,
      roomForRecords(reading.room),
      reading.reserveBytes,
      this.daysKept,
      this.setting,
    );
    return this.daysKept;
  }

  /**
   * Logs a change: near (from ample) and at, once each; room again only past 2.2 times the reserve,
   * so free space wavering at a boundary under frequent /readyz probes says nothing more.
   */
  private tell(r: RoomReading): void {
    const left = roomForRecords(r.room);
    let say: RoomState | null = null;
    if (r.state === "at" && this.told !== "at") say = "at";
    else if (r.state === "near" && this.told === "ample") say = "near";
    else if (r.state === "ample" && this.told !== "ample" && left > 2.2 * r.reserveBytes) say = "ample";
    if (say === null) return;
    this.told = say;
    this.say({ ...r, state: say });
  }

  private say(r: RoomReading): void {
    const left = mbOf(roomForRecords(r.room));
    const reserve = mbOf(r.reserveBytes);
    const fields = {
      roomBytes: roomForRecords(r.room),
      freeBytes: r.room.freeBytes,
      reserveBytes: r.reserveBytes,
      retentionDays: this.setting.retentionDays,
      retentionMinDays: this.setting.minDays,
    };
    if (r.state === "near")
      log(
        "warning",
        `the disk nears the ${reserve} MB kept for ticket events: ${left} MB left for records; at the reserve, photos are refused and retention deletes the oldest records, never those younger than ${this.setting.minDays} days`,
        fields,
      );
    else if (r.state === "at")
      log(
        "warning",
        `the disk is at the ${reserve} MB kept for ticket events (${left} MB left for records): photos are refused, and retention deletes the oldest records beyond what the disk holds, never those younger than ${this.setting.minDays} days`,
        fields,
      );
    else log("notice", `the disk has room again: ${left} MB left for records`, fields);
  }
}
