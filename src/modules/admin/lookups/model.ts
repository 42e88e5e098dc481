import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { wholeNumberParam } from "../../../platform/http/validation.ts";
import { LOOKUP_KINDS } from "../../../platform/store/lookup-kinds.ts";
import { CursorParam } from "../paging.ts";

export const PageQuery = t.Object({
  registration_number: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 64,
      description: "A plate in any spelling: its lookups and verdicts",
    }),
  ),
  credential: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 100,
      description: "Who asked: a credential label, e.g. token:handheld-1",
    }),
  ),
  by: t.Optional(
    t.String({
      pattern: `^(?:${LOOKUP_KINDS.join("|")})(?:,(?:${LOOKUP_KINDS.join("|")})){0,${LOOKUP_KINDS.length - 1}}$`,
      // The first clause is the refusal's message too (validation.ts).
      description: `kinds of record joined by commas, each one of ${LOOKUP_KINDS.join(", ")}; only those are listed. Plate checks are registration_number,verdict,offline_verdict; zone lists zone,zone_list; reads of a car's earlier checks checks; marks observation; notices issued notice`,
    }),
  ),
  from: t.Optional(t.String({ description: "ISO 8601; records at or after it" })),
  to: t.Optional(t.String({ description: "ISO 8601; records before it" })),
  cursor: CursorParam,
  limit: t.Optional(wholeNumberParam("limit", "query", 1, 200, "Records a page (50 unless given)")),
});

export const LookupPage = t.Object({
  data: t.Array(
    t.Object({
      at: t.String({ format: "date-time" }),
      credential: t.String(),
      by: t.UnionEnum(LOOKUP_KINDS, {
        description:
          "What was asked: a plate, a zone, a zone list, a verdict, a mark, a car's earlier checks (checks: someone read them), a verdict a handheld gave from its saved list while the box did not answer (offline_verdict; at: when it answered, sent when the box answered again), or a control notice issued (notice)",
      }),
      query: t.String({
        description:
          "The normalized plate (a plate lookup, a read of its checks) or the zone number; a verdict, a mark (observation) or a notice: PLATE@ZONE",
      }),
      results: Type.Integer({
        description:
          "How many answers a lookup gave; a mark or a notice: 1 when stored, 0 for one sent again",
      }),
      verdict: t.Union(
        [
          t.UnionEnum(["valid_here", "grace", "over_time_limit", "valid_elsewhere", "outside_hours", "none"]),
          t.Null(),
        ],
        {
          description:
            "What a verdict told the attendant, or the verdict a notice follows; null for every other lookup",
        },
      ),
      camera_read: t.Union([t.String(), t.Null()], {
        description:
          "A verdict (or an offline one) for a plate the handheld's camera filled in: the plate as the camera read it, normalized. The same as the query's plate: taken as read; another plate: the attendant corrected the read. null: the plate was typed",
      }),
    }),
  ),
  next_cursor: t.Union([t.String(), t.Null()], { description: "null on the last page" }),
});
