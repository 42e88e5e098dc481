import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { wholeNumberParam } from "../../../platform/http/validation.ts";
import { CursorParam } from "../paging.ts";

const Subject = t.UnionEnum(["lot", "permit", "token", "user", "notice", "notice_reason"]);
/** As a query parameter: a plain pattern, since Elysia fills an absent optional enum with its first value. */
const SubjectParam = t.String({
  pattern: "^(lot|permit|token|user|notice|notice_reason)$",
  description: "lot, permit, token, user, notice or notice_reason",
});
const FieldValues = t.Union([t.Record(t.String(), t.Unknown()), t.Null()]);

export const ChangeQuery = t.Object({
  subject: t.Optional(SubjectParam),
  subject_id: t.Optional(
    t.String({ minLength: 1, maxLength: 64, description: "With subject: one record's history" }),
  ),
  actor: t.Optional(
    t.String({ minLength: 1, maxLength: 100, description: "A credential label, e.g. user:anna, or cli" }),
  ),
  from: t.Optional(t.String({ description: "ISO 8601; changes at or after it" })),
  to: t.Optional(t.String({ description: "ISO 8601; changes before it" })),
  cursor: CursorParam,
  limit: t.Optional(wholeNumberParam("limit", "query", 1, 200, "Changes a page (50 unless given)")),
});

export const OperatorChange = t.Object({
  id: Type.Integer(),
  at: t.String({ format: "date-time" }),
  actor: t.String({ description: "The credential label (token:NAME, user:NAME) or cli" }),
  via: t.UnionEnum(["api", "console", "cli", "handheld"], {
    description:
      "Through what: an API client (a bearer or Basic credential), the console (an operator's browser session), the command line, or a handheld (the attendant's page in a browser session)",
  }),
  subject: Subject,
  subject_id: t.String(),
  action: t.UnionEnum(["create", "update", "delete", "revoke", "issue", "void"]),
  before: t.Union([FieldValues], { description: "The changed fields as they were; null for a create" }),
  after: t.Union([FieldValues], { description: "The changed fields as they became; null for a delete" }),
});

export const ChangePage = t.Object({
  data: t.Array(OperatorChange),
  next_cursor: t.Union([t.String(), t.Null()], { description: "null on the last page" }),
});
