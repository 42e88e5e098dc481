/**
 * What the pages read from the box, as the server's own TypeBox models say it: one declaration
 * per shape, so a field renamed on the server fails the client's type check instead of reading
 * undefined in a browser. Type-only: nothing of the server reaches the bundle (the layers test
 * checks that the client imports the server's files for types only).
 */
import type { Static } from "@sinclair/typebox";
import type { ParkingLot } from "../domain/lots/schema.ts";
import type { OperatorChange } from "../modules/admin/changes/model.ts";
import type { TokenInfo, UserInfo } from "../modules/admin/credentials/model.ts";
import type { LookupPage } from "../modules/admin/lookups/model.ts";
import type { ImportReport as ImportReportModel } from "../modules/admin/lots/model.ts";
import type {
  Notice as NoticeModel,
  NoticeReason as NoticeReasonModel,
} from "../modules/admin/notices/model.ts";
import type { LotNow as LotNowModel, OccupancyHistory } from "../modules/admin/occupancy/model.ts";
import type { Permit as PermitModel } from "../modules/admin/permits/model.ts";
import type { RevenueReport } from "../modules/admin/reports/model.ts";
import type { TicketPage, TicketView as TicketViewModel } from "../modules/admin/tickets/model.ts";
import type {
  ExtendedInformation,
  KnownZones as KnownZonesModel,
  PlateChecks as PlateChecksModel,
  Verdict as VerdictModel,
  ZonePermitChanges as ZonePermitChangesModel,
  ZonePermits as ZonePermitsModel,
} from "../modules/enforcement/model.ts";
import type {
  AttendantReasons as AttendantReasonsModel,
  NoticeInput as NoticeInputModel,
  NoticeReceipt as NoticeReceiptModel,
} from "../modules/enforcement/notices/model.ts";
import type {
  MarkInput as MarkInputModel,
  ObservationReceipt as ObservationReceiptModel,
} from "../modules/enforcement/observations/model.ts";
import type {
  OfflineCheck as OfflineCheckModel,
  OfflineChecksReceipt as OfflineChecksReceiptModel,
} from "../modules/enforcement/offline-checks/model.ts";
import type { BoardView } from "../modules/kiosk/model.ts";
import type { Status as StatusModel } from "../modules/operations/model.ts";
import type { Quote as QuoteModel } from "../modules/public/model.ts";
import type { HandheldSetupEnvelope, SessionEnvelope } from "../modules/web/model.ts";

export type Lot = Static<typeof ParkingLot>;
export type Quote = Static<typeof QuoteModel>;
export type ImportReport = Static<typeof ImportReportModel>;
export type Permit = Static<typeof PermitModel>;
export type Ticket = Static<typeof TicketPage>["data"][number];
export type TicketView = Static<typeof TicketViewModel>["data"];
export type Token = Static<typeof TokenInfo>;
export type User = Static<typeof UserInfo>;
export type LookupRecord = Static<typeof LookupPage>["data"][number];
export type Change = Static<typeof OperatorChange>;
export type Status = Static<typeof StatusModel>["data"];
export type LotNow = Static<typeof LotNowModel>;
export type History = Static<typeof OccupancyHistory>;
export type Revenue = Static<typeof RevenueReport>;
export type Board = Static<typeof BoardView>;
export type BoardLot = Board["lots"][number];
export type HandheldSetup = Static<typeof HandheldSetupEnvelope>["data"];
export type Session = Static<typeof SessionEnvelope>["data"];
export type Verdict = Static<typeof VerdictModel>;
export type Found = Static<typeof ExtendedInformation>;
export type ZonePermits = Static<typeof ZonePermitsModel>;
export type ZonePermitChanges = Static<typeof ZonePermitChangesModel>;
export type KnownZones = Static<typeof KnownZonesModel>["data"];
export type PlateChecks = Static<typeof PlateChecksModel>["data"];
export type NoticeReasons = AttendantReasonsModel;
export type NoticeInput = NoticeInputModel;
export type NoticeReceipt = NoticeReceiptModel["data"];
/** A notice as the operator reads it, and a reason as the console keeps it. */
export type ConsoleNotice = NoticeModel;
export type ConsoleNoticeReason = Static<typeof NoticeReasonModel>;
export type ObservationReceipt = ObservationReceiptModel;
export type MarkInput = MarkInputModel;
export type OfflineCheck = OfflineCheckModel;
export type OfflineChecksReceipt = OfflineChecksReceiptModel;
