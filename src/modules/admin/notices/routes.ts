import { Elysia } from "elysia";
import { actorOf } from "../../../platform/http/actor.ts";
import { authPlugin } from "../../../platform/http/auth.ts";
import { routeDeclaration } from "../../../platform/http/route-declaration.ts";
import { created } from "../answers.ts";
import type { AdminDeps } from "../deps.ts";
import { csvDownload } from "../reports/csv.ts";
import { noticeAdminOperations } from "./contract.ts";
import {
  NoticeCsvQuery,
  NoticeEnvelope,
  NoticeNumberParams,
  NoticePage,
  NoticePhotoParams,
  NoticeQuery,
  NoticeReasonEnvelope,
  NoticeReasonInput,
  NoticeReasonList,
  NoticeReasonPatch,
  ReasonCodeParams,
  VoidInput,
} from "./model.ts";
import { NoticeAdmin } from "./service.ts";

/** Control notices and the table of reasons, for operators (scope admin). */
export function noticeAdminRoutes(ctx: AdminDeps) {
  const service = new NoticeAdmin(ctx);
  const tags = ["notices"];
  return new Elysia({ name: "notice-admin" })
    .use(routeDeclaration)
    .use(authPlugin(ctx.auth))
    .get("/api/v1/notices", ({ query }) => service.list(query), {
      operation: noticeAdminOperations.searchNotices,
      auth: { scope: "admin" },
      query: NoticeQuery,
      response: NoticePage,
      detail: {
        summary: "Control notices, newest number first; by plate, date, attendant, reason, state",
        tags,
      },
    })
    .get(
      "/api/v1/notices.csv",
      ({ query }) => {
        const { text, name } = service.csv(query);
        return csvDownload(text, name);
      },
      {
        operation: noticeAdminOperations.exportNoticesCsv,
        auth: { scope: "admin" },
        query: NoticeCsvQuery,
        detail: { summary: "The notices the filters name, as CSV (se or RFC 4180), oldest first", tags },
      },
    )
    .get("/api/v1/notices/:number", ({ params }) => ({ data: service.get(params.number) }), {
      operation: noticeAdminOperations.getNotice,
      auth: { scope: "admin" },
      params: NoticeNumberParams,
      response: NoticeEnvelope,
      detail: { summary: "One notice, with its photos' addresses", tags },
    })
    .get(
      "/api/v1/notices/:number/photos/:hash",
      ({ params }) => {
        const { bytes, contentType } = service.photo(params.number, params.hash);
        return new Response(bytes as Uint8Array<ArrayBuffer>, {
          headers: {
            "Content-Type": contentType,
            // A photo never changes under its hash.
            "Cache-Control": "private, max-age=31536000, immutable",
            "X-Content-Type-Options": "nosniff",
          },
        });
      },
      {
        operation: noticeAdminOperations.getNoticePhoto,
        auth: { scope: "admin" },
        params: NoticePhotoParams,
        detail: { summary: "A notice's photo", tags },
      },
    )
    .post(
      "/api/v1/notices/:number/void",
      ({ params, body, credential, request }) => ({
        data: service.void(params.number, body.reason, actorOf(credential, request)),
      }),
      {
        operation: noticeAdminOperations.voidNotice,
        auth: { scope: "admin", strictBody: VoidInput },
        params: NoticeNumberParams,
        body: VoidInput,
        response: NoticeEnvelope,
        detail: { summary: "Void a notice, with the reason (recorded; the notice is kept)", tags },
      },
    )
    .get("/api/v1/notice-reasons", () => service.reasons(), {
      operation: noticeAdminOperations.listNoticeReasons,
      auth: { scope: "admin" },
      response: NoticeReasonList,
      detail: { summary: "The site's reasons for notices and their amounts, retired ones included", tags },
    })
    .post(
      "/api/v1/notice-reasons",
      ({ body, credential, request, set }) => {
        const { data } = service.addReason(body, actorOf(credential, request));
        return created(set, `/api/v1/notice-reasons/${data.code}`, data);
      },
      {
        operation: noticeAdminOperations.createNoticeReason,
        auth: { scope: "admin", strictBody: NoticeReasonInput },
        body: NoticeReasonInput,
        response: { 201: NoticeReasonEnvelope },
        detail: { summary: "Add a reason with its amount", tags },
      },
    )
    .patch(
      "/api/v1/notice-reasons/:code",
      ({ params, body, credential, request }) =>
        service.changeReason(params.code, body, actorOf(credential, request)),
      {
        operation: noticeAdminOperations.updateNoticeReason,
        auth: { scope: "admin", strictBody: NoticeReasonPatch },
        params: ReasonCodeParams,
        body: NoticeReasonPatch,
        response: NoticeReasonEnvelope,
        detail: { summary: "Change a reason's title or amount, or retire it (active: false)", tags },
      },
    );
}
