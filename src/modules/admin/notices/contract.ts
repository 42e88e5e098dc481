import { noticeExample } from "../../../domain/notices/example.ts";
import type { ApiContract, OperationContract } from "../../../platform/http/api-contract.ts";
import {
  Notice,
  NoticeEnvelope,
  NoticePage,
  NoticeReason,
  NoticeReasonEnvelope,
  NoticeReasonInput,
  NoticeReasonList,
  NoticeReasonPatch,
  VoidInput,
} from "./model.ts";

const notice = {
  ...noticeExample,
  issued_by: "token:handheld-1",
  state: "issued",
  voided_at: null,
  parking_lot_name: "Centrum P-hus",
  voided_by: null,
  void_reason: null,
  photos: noticeExample.photos.map((p) => ({
    ...p,
    url: `/api/v1/notices/${noticeExample.number}/photos/${p.hash}`,
  })),
};
const reason = {
  code: "no-permit",
  title: "No valid ticket or permit",
  amount: 50000,
  active: true,
  verdicts: ["none"],
  created_at: "2026-06-01T08:00:00.000000Z",
  updated_at: "2026-06-01T08:00:00.000000Z",
};

/** What the OpenAPI document says of the operator's notices and reasons (docs/notices.md). */
export const noticeAdminContract: ApiContract = {
  named: {
    Notice: { schema: Notice, example: notice },
    NoticeEnvelope: { schema: NoticeEnvelope },
    NoticePage: { schema: NoticePage, example: { data: [notice], next_cursor: null } },
    NoticeReason: { schema: NoticeReason, example: reason },
    NoticeReasonEnvelope: { schema: NoticeReasonEnvelope, example: { data: reason } },
    NoticeReasonList: { schema: NoticeReasonList, example: { data: [reason], currency: "SEK" } },
    // The reason every other example names: a suite that runs the examples in order creates it,
    // changes it, and issues a notice for it.
    NoticeReasonInput: {
      schema: NoticeReasonInput,
      example: {
        code: reason.code,
        title: reason.title,
        amount: reason.amount,
        active: true,
        verdicts: reason.verdicts,
      },
    },
    NoticeReasonPatch: { schema: NoticeReasonPatch, example: { amount: 60000 } },
    VoidInput: { schema: VoidInput, example: { reason: "Permit shown afterwards at the office" } },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const noticeAdminOperations = {
  searchNotices: { operationId: "searchNotices", tag: "notices", examples: { state: "issued" } },
  exportNoticesCsv: {
    operationId: "exportNoticesCsv",
    tag: "notices",
    examples: { state: "issued" },
    description:
      "The notices the filters name (all of them, oldest first), written as the revenue report's CSV is: `se` (default) with semicolons, decimal commas and a byte order mark; `rfc4180` with commas. Times in the site's time zone, named in their headings (`Utfärdad (Europe/Stockholm)`): `2026-06-15 12:00:00` in `se`, `2026-06-15T12:00:00+02:00` in `rfc4180`.",
    ok: { 200: { description: "CSV", contentType: "text/csv", schema: { type: "string" } } },
  },
  getNotice: { operationId: "getNotice", problems: ["notice-not-found"], tag: "notices" },
  getNoticePhoto: {
    operationId: "getNoticePhoto",
    problems: ["notice-not-found", "photo-not-found"],
    tag: "notices",
    ok: {
      200: {
        description: "The photo, as the handheld sent it",
        contentType: ["image/jpeg", "image/png"],
        schema: { type: "string", format: "binary" },
      },
    },
  },
  voidNotice: {
    operationId: "voidNotice",
    problems: ["notice-not-found", "notice-voided"],
    tag: "notices",
    description:
      "Voids a notice with the operator's reason, recorded in the notice and the change history. A notice is never deleted before retention; voiding twice is 409.",
  },
  listNoticeReasons: { operationId: "listNoticeReasons", tag: "notices" },
  createNoticeReason: {
    operationId: "createNoticeReason",
    problems: ["reason-exists"],
    tag: "notices",
    ok: {
      201: {
        description: "Added",
        schema: "NoticeReasonEnvelope",
        headers: ["Location"],
      },
    },
  },
  updateNoticeReason: {
    operationId: "updateNoticeReason",
    problems: ["reason-not-found"],
    tag: "notices",
    description:
      "Changes apply to notices issued from now on; issued notices keep the title and amount they were issued with. Recorded in the change history.",
  },
} satisfies Record<string, OperationContract>;
