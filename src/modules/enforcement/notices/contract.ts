import { noticeExample as receipt } from "../../../domain/notices/example.ts";
import type { ApiContract, OperationContract } from "../../../platform/http/api-contract.ts";
import { AttendantReasons, NoticeInput, NoticeReceipt, PhotoReceipt } from "./model.ts";

/** What the OpenAPI document says of the notices a handheld issues (docs/notices.md). */
export const attendantNoticeContract: ApiContract = {
  named: {
    NoticeInput: {
      schema: NoticeInput,
      example: {
        id: receipt.id,
        registration_number: "ABC 123",
        zone: 1234,
        parking_lot_id: 1,
        verdict: "none",
        reason: "no-permit",
        note: "valves 2 and 7",
        observed_at: "2026-06-15T12:02:00+02:00",
      },
    },
    NoticeReceipt: { schema: NoticeReceipt, example: { data: receipt } },
    PhotoReceipt: { schema: PhotoReceipt, example: { data: receipt.photos[0] } },
    AttendantReasons: {
      schema: AttendantReasons,
      example: {
        data: [{ code: "no-permit", title: "No valid ticket or permit", amount: 50000, verdicts: ["none"] }],
        currency: "SEK",
      },
    },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const attendantNoticeOperations = {
  listNoticeReasonsForHandheld: {
    operationId: "listNoticeReasonsForHandheld",
    tag: "notices",
    description:
      "The reasons a handheld offers when it starts a notice, with their amounts (active ones only).",
    ok: { 200: { description: "The site's active reasons", schema: "AttendantReasons" } },
  },
  issueNotice: {
    operationId: "issueNotice",
    problems: ["notice-exists", "reason-unknown", "reason-not-for-verdict"],
    tag: "notices",
    description:
      "A control notice from a verdict of NO VALID PERMIT (`none`) or OVER TIME LIMIT. The phone makes the id, so a notice made offline and sent when the box answers is stored exactly once: the same notice again is answered 200 with what is stored (its number included); another notice under a stored id is 409. The number is the site's own sequence, taken in the commit that stores the notice, so it has no gaps. The amount and the reason's title are the site's table's at the time it is stored. Recorded in the change history.",
    ok: {
      201: { description: "Stored, with its number", schema: "NoticeReceipt" },
      200: { description: "Stored before (a retry): the stored notice", schema: "NoticeReceipt" },
    },
  },
  addNoticePhoto: {
    operationId: "addNoticePhoto",
    problems: ["notice-not-found", "notice-voided", "photo-invalid", "too-many-photos", "photo-storage-full"],
    tag: "notices",
    description:
      "The body is the photo itself, a JPEG or PNG of at most 500 KB and 1600 px on its longest side (the phone scales it before sending), with its Content-Type. The same photo again is answered 200 with what is stored; a notice takes at most three. A full disk refuses the photo (503, Retry-After) and keeps the notice.",
    requestBody: {
      required: true,
      content: {
        "image/jpeg": { schema: { type: "string", format: "binary" }, example: "(the JPEG file's bytes)" },
        "image/png": { schema: { type: "string", format: "binary" }, example: "(the PNG file's bytes)" },
      },
    },
    ok: {
      201: { description: "Stored", schema: "PhotoReceipt" },
      200: { description: "Stored before (a retry)", schema: "PhotoReceipt" },
    },
  },
} satisfies Record<string, OperationContract>;
