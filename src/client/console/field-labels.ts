import type { Change } from "../api-types.ts";
import { t } from "../i18n.ts";

/**
 * The fields of each kind of record by the words the console's forms use for them, for the
 * conflict notice and the change history: the API's names are for programs, not for operators.
 */
export function fieldLabels(subject: Change["subject"]): Record<string, string> {
  switch (subject) {
    case "lot":
      return {
        name: t("name"),
        zone_number: t("zone"),
        number_of_spaces: t("spaces"),
        max_time: t("maxTime"),
        max_fee: t("maxFeeShort"),
        active: t("active"),
        parking_lot_fee: t("fees"),
        variable_fees: t("variableFees"),
        parking_lot_open: t("openingHours"),
        parking_lot_location: t("locations"),
      };
    case "permit":
      return {
        registration_number: t("plate"),
        zone: t("zone"),
        start_at: t("start"),
        end_at: t("endShort"),
        note: t("note"),
        days: t("weeklyHours"),
      };
    case "notice":
      return {
        registration_number: t("plate"),
        zone: t("zone"),
        parking_lot_id: t("lot"),
        verdict: t("verdictSeen"),
        reason: t("noticeReason"),
        amount: t("amountDue"),
        currency: t("currencyLabel"),
        note: t("note"),
        observed_at: t("observedAt"),
        state: t("state"),
        void_reason: t("voidReason"),
      };
    case "notice_reason":
      return {
        title: t("reasonTitle"),
        amount: t("amountDue"),
        active: t("active"),
        verdicts: t("reasonVerdicts"),
      };
    default:
      return { name: t("name"), scopes: t("scopes"), expires_at: t("expires") };
  }
}
