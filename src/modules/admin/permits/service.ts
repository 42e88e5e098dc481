import { type Actor, fieldChanges } from "../../../domain/changes.ts";
import { type FieldError, invalid, refuse, stale } from "../../../domain/errors.ts";
import { isActive, windowSpans } from "../../../domain/permits/activity.ts";
import { normalizePlate, plateFieldError } from "../../../domain/plates.ts";
import { formatMicros, parseInstant } from "../../../domain/time/zoned.ts";
import { etagOf, ifMatchHolds } from "../../../platform/http/conditional.ts";
import { PERMIT_ORDERS, type StoredPermit } from "../../../platform/store/permits.ts";
import type { AdminDeps } from "../deps.ts";
import { pageCursor, readSort } from "../sorting.ts";
import type { Permit, PermitInput, PermitListQuery, PermitPatch } from "./model.ts";

const notFound = (id: number) => refuse("permit-not-found", `There is no permit with id ${id}`);

/** The stored form of a permit, checked beyond what the schema can say (dates, order, plate). */
function checked(input: PermitInput, timezone: string) {
  const errors: FieldError[] = [];
  const plateNorm = normalizePlate(input.registration_number);
  const plateError = plateFieldError(input.registration_number);
  if (plateError) errors.push(plateError);
  const startAt = parseInstant(input.start_at, timezone);
  if (startAt === null)
    errors.push({
      pointer: "/start_at",
      message: "Expected an ISO 8601 date-time, e.g. 2026-06-15T08:00:00Z",
    });
  let endAt: number | null = null;
  if (input.end_at !== undefined && input.end_at !== null) {
    endAt = parseInstant(input.end_at, timezone);
    if (endAt === null)
      errors.push({ pointer: "/end_at", message: "Expected an ISO 8601 date-time, or null for open-ended" });
    else if (startAt !== null && endAt <= startAt)
      errors.push({ pointer: "/end_at", message: "end_at must be after start_at" });
  }
  const days = input.days ?? [];
  days.forEach((d, i) => {
    if (d.start_time === d.end_time || (d.start_time === "00:00:00" && d.end_time === "00:00:00"))
      errors.push({
        pointer: `/days/${i}/end_time`,
        message: "A window needs a length; for a whole day use 00:00:00 to 24:00:00",
      });
    if (d.start_time === "24:00:00")
      errors.push({ pointer: `/days/${i}/start_time`, message: "A window starts before 24:00:00" });
  });
  if (errors.length > 0) throw invalid(errors);
  return {
    plate: input.registration_number.trim(),
    plateNorm,
    zone: input.zone,
    startAt: startAt!,
    endAt,
    note: input.note ?? "",
    days: days.map((d) => ({ weekday: d.weekday, start_time: d.start_time, end_time: d.end_time })),
  };
}

/**
 * A permit's ETag names its stored version (every stored field, updated_at included). `active`
 * is computed at request time and does not move it: a permit that became active since an editor
 * read it has not been changed by anyone.
 */
export function permitEtag(p: StoredPermit): string {
  return etagOf(JSON.stringify(p));
}

/**
 * The fields an operator writes, as the API names them: what the change history keeps of a
 * permit, and the heart of its view.
 */
function permitFields(p: StoredPermit) {
  return {
    registration_number: p.plate,
    zone: p.zone,
    start_at: formatMicros(p.startAt),
    end_at: p.endAt === null ? null : formatMicros(p.endAt),
    note: p.note,
    days: p.days ?? [],
  };
}

/** A permit as answered, with the ETag of the stored version it was read from. */
export interface Versioned {
  permit: Permit;
  etag: string;
}

/** Operator-issued permits: residents, staff, contractors. */
export class PermitService {
  private readonly ctx: AdminDeps;

  constructor(ctx: AdminDeps) {
    this.ctx = ctx;
  }

  private view(p: StoredPermit, now: number): Permit {
    return {
      id: p.id,
      ...permitFields(p),
      active: isActive({ ...p, windows: windowSpans(p.days) }, now, this.ctx.config.timezone),
      created_at: formatMicros(p.createdAt),
      updated_at: formatMicros(p.updatedAt),
      created_by: p.createdBy,
    };
  }

  private load(id: number): StoredPermit {
    const row = this.ctx.store.permits.get(id);
    if (!row) throw notFound(id);
    return row;
  }

  /** Keeps the write in the change history (inside the write's transaction); nothing if nothing changed. */
  private record(actor: Actor, id: number, before: StoredPermit | null, after: StoredPermit | null): void {
    const fields = fieldChanges(before && permitFields(before), after && permitFields(after));
    if (!fields) return;
    this.ctx.store.changes.record({
      at: this.ctx.now(),
      actor: actor.who,
      via: actor.via,
      subject: "permit",
      subjectId: String(id),
      action: before === null ? "create" : after === null ? "delete" : "update",
      ...fields,
    });
  }

  create(input: PermitInput, actor: Actor): Permit {
    const now = this.ctx.now();
    const values = checked(input, this.ctx.config.timezone);
    const row = this.ctx.store.transaction(() => {
      const row = this.ctx.store.permits.insert(values, now, actor.who);
      this.record(actor, row.id, null, row);
      return row;
    })();
    return this.view(row, now);
  }

  get(id: number): Versioned {
    const row = this.load(id);
    return { permit: this.view(row, this.ctx.now()), etag: permitEtag(row) };
  }

  /** The permit as stored now, refused with 412 when `ifMatch` names another version. */
  private matching(id: number, ifMatch: string | null | undefined): StoredPermit {
    const row = this.load(id);
    const etag = permitEtag(row);
    if (!ifMatchHolds(ifMatch, etag)) throw stale(`Permit ${id}`, etag);
    return row;
  }

  /** Permits in the order asked for, all of them or a page at a time when a limit is given. */
  list(q: PermitListQuery): { data: Permit[]; next_cursor: string | null } {
    const now = this.ctx.now();
    const sort = q.sort ?? "id";
    const page = this.ctx.store.permits.list({
      plateNorm: q.registration_number === undefined ? undefined : normalizePlate(q.registration_number),
      zone: q.zone,
      ...readSort("permits", sort, PERMIT_ORDERS, q.cursor),
      limit: q.limit,
    });
    return {
      data: page.rows.map((p) => this.view(p, now)),
      next_cursor: page.next && pageCursor("permits", sort, page.next),
    };
  }

  /** PUT: the whole permit is replaced; fields left out take their defaults. */
  replace(id: number, input: PermitInput, actor: Actor, ifMatch?: string | null): Versioned {
    const values = checked(input, this.ctx.config.timezone);
    return this.write(id, actor, ifMatch, () => values);
  }

  /** PATCH: the given fields change, the rest stay; the result is checked as a whole. */
  update(id: number, patch: PermitPatch, actor: Actor, ifMatch?: string | null): Versioned {
    return this.write(id, actor, ifMatch, (current) => this.merged(current, patch));
  }

  private merged(current: StoredPermit, patch: PermitPatch): ReturnType<typeof checked> {
    const merged: PermitInput = {
      registration_number: patch.registration_number ?? current.plate,
      zone: patch.zone ?? current.zone,
      start_at: patch.start_at ?? new Date(current.startAt).toISOString(),
      end_at:
        patch.end_at !== undefined
          ? patch.end_at
          : current.endAt === null
            ? null
            : new Date(current.endAt).toISOString(),
      note: patch.note ?? current.note,
      days: patch.days ?? current.days ?? [],
    };
    return checked(merged, this.ctx.config.timezone);
  }

  private write(
    id: number,
    actor: Actor,
    ifMatch: string | null | undefined,
    next: (current: StoredPermit) => ReturnType<typeof checked>,
  ): Versioned {
    const now = this.ctx.now();
    const row = this.ctx.store.transaction(() => {
      const current = this.matching(id, ifMatch);
      const row = this.ctx.store.permits.update(id, next(current), now);
      if (!row) throw notFound(id);
      this.record(actor, id, current, row);
      return row;
    })();
    return { permit: this.view(row, now), etag: permitEtag(row) };
  }

  /** Removes the permit for good; to end one early, set its end_at instead. */
  remove(id: number, actor: Actor, ifMatch?: string | null): void {
    this.ctx.store.transaction(() => {
      const current = this.matching(id, ifMatch);
      this.ctx.store.permits.delete(id);
      this.record(actor, id, current, null);
    })();
  }
}
