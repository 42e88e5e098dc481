import { Type } from "@sinclair/typebox";
import { type Static, t } from "elysia";
import { INSTANT_OR_DATE_PATTERN } from "../../../domain/time/zoned.ts";
import { ZONE_MAX } from "../../../domain/zones.ts";
import { wholeNumberParam } from "../../../platform/http/validation.ts";
import { PERMIT_ORDERS } from "../../../platform/store/permits.ts";
import { CursorParam } from "../paging.ts";
import { sortParam } from "../sorting.ts";

/** JSON integers only: Elysia's t.Integer would read "0x10" as 16 (see readWholeNumber). */
const Int = Type.Integer;

/** Operator-issued permits: what the admin API accepts and answers. */

const TIME_OF_DAY = "^([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$|^24:00:00$";

export const PermitWindow = t.Object(
  {
    weekday: Int({ minimum: 1, maximum: 7, description: "ISO weekday the window starts: 1 = Monday" }),
    start_time: t.String({ pattern: TIME_OF_DAY, description: "HH:MM:SS, site time zone" }),
    end_time: t.String({
      pattern: TIME_OF_DAY,
      description: "HH:MM:SS; at or before start_time: runs past midnight. 23:59:59 or 24:00:00: end of day",
    }),
  },
  { additionalProperties: false },
);

const permitFields = {
  registration_number: t.String({ minLength: 1, maxLength: 64 }),
  zone: Int({ minimum: 0, maximum: ZONE_MAX }),
  start_at: t.String({
    pattern: INSTANT_OR_DATE_PATTERN,
    description: "a date-time or a date in ISO 8601; without an offset it is site time",
  }),
  end_at: t.Optional(
    t.Union(
      [
        t.String({
          pattern: INSTANT_OR_DATE_PATTERN,
          description: "a date-time or a date in ISO 8601; without an offset it is site time",
        }),
        t.Null(),
      ],
      { description: "null or absent: open-ended" },
    ),
  ),
  note: t.Optional(t.String({ maxLength: 500 })),
  days: t.Optional(t.Array(PermitWindow, { maxItems: 50, description: "Weekly windows; empty: always" })),
};

/** POST and PUT: a whole permit. Unknown fields are refused (the auth option strictBody). */
export const PermitInput = t.Object(permitFields, { additionalProperties: false });
export type PermitInput = Static<typeof PermitInput>;

/** PATCH: any subset of the fields. */
export const PermitPatch = t.Partial(t.Object(permitFields), {
  additionalProperties: false,
  minProperties: 1,
});
export type PermitPatch = Static<typeof PermitPatch>;

export const PermitIdParams = t.Object({
  id: wholeNumberParam("id", "params", 1, 2_147_483_647, "Permit id"),
});

export const PermitListQuery = t.Object({
  registration_number: t.Optional(t.String({ maxLength: 64 })),
  zone: t.Optional(wholeNumberParam("zone", "query", 0, ZONE_MAX)),
  sort: sortParam(Object.keys(PERMIT_ORDERS), "id"),
  cursor: CursorParam,
  limit: t.Optional(wholeNumberParam("limit", "query", 1, 500, "Permits a page (all of them unless given)")),
});
export type PermitListQuery = Static<typeof PermitListQuery>;

export const Permit = t.Object({
  id: Int(),
  registration_number: t.String(),
  zone: Int(),
  start_at: t.String({ format: "date-time" }),
  end_at: t.Union([t.String({ format: "date-time" }), t.Null()]),
  note: t.String(),
  days: t.Array(PermitWindow),
  active: t.Boolean({ description: "Active at the time of the request" }),
  created_at: t.String(),
  updated_at: t.String(),
  created_by: t.String(),
});
export type Permit = Static<typeof Permit>;

export const PermitEnvelope = t.Object({ data: Permit });
export const PermitList = t.Object({
  data: t.Array(Permit),
  next_cursor: t.Union([t.String(), t.Null()], { description: "null on the last page, and without a limit" }),
});
