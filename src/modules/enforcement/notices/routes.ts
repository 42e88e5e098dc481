import { Elysia } from "elysia";
import { PHOTO_MAX_BYTES } from "../../../domain/notices/rules.ts";
import { attendantActorOf } from "../../../platform/http/actor.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import type { EnforcementContext } from "../module-context.ts";
import { attendantNoticeOperations } from "./contract.ts";
import { AttendantReasons, NoticeIdParams, NoticeInput, NoticeReceipt, PhotoReceipt } from "./model.ts";
import { AttendantNotices } from "./service.ts";

/** Control notices as a handheld issues them (scope notices:write). */
export function noticeRoutes(ctx: EnforcementContext) {
  const notices = new AttendantNotices(ctx);
  const tags = ["notices"];
  return new Elysia({ name: "attendant-notices" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get("/api/v1/attendants/notice-reasons", () => notices.reasons(), {
      operation: attendantNoticeOperations.listNoticeReasonsForHandheld,
      auth: { scope: "notices:write" },
      response: AttendantReasons,
      detail: { summary: "The site's reasons for a control notice, with their amounts", tags },
    })
    .post(
      "/api/v1/attendants/notices",
      ({ body, credential, request, set }) => {
        const { receipt, created } = notices.issue(body, attendantActorOf(credential, request));
        set.status = created ? 201 : 200;
        return receipt;
      },
      {
        operation: attendantNoticeOperations.issueNotice,
        auth: { scope: "notices:write", strictBody: NoticeInput },
        body: NoticeInput,
        response: { 200: NoticeReceipt, 201: NoticeReceipt },
        detail: { summary: "Issue a control notice (idempotent by the phone's id)", tags },
      },
    )
    .post(
      "/api/v1/attendants/notices/:id/photos",
      async ({ params, request, body, credential, set }) => {
        const { photo, created } = await notices.addPhoto(
          params.id,
          body as Uint8Array,
          request.headers.get("content-type"),
          attendantActorOf(credential, request),
        );
        set.status = created ? 201 : 200;
        return { data: photo };
      },
      {
        operation: attendantNoticeOperations.addNoticePhoto,
        // A photo is its bytes, up to the notices' own limit rather than the JSON body limit.
        rawBody: { limit: PHOTO_MAX_BYTES },
        auth: { scope: "notices:write" },
        params: NoticeIdParams,
        response: { 200: PhotoReceipt, 201: PhotoReceipt },
        detail: {
          summary: "Add a photo (JPEG or PNG, the body itself) to a notice this handheld issued",
          tags,
        },
      },
    );
}
