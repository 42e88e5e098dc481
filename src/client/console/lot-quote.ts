import { api, query } from "../api.ts";
import type { Lot, Quote } from "../api-types.ts";
import { debounce, h, replace } from "../dom.ts";
import { money, t } from "../i18n.ts";
import { localValue } from "./datetime.ts";
import { problemText } from "./table.ts";

/** The price preview above a lot's form: what parking from one time to another costs there. */
export function quotePreview(lot: Lot | null): HTMLElement {
  // The price preview asks the real quote endpoint about the saved lot.
  const now = new Date();
  now.setMinutes(0, 0, 0);
  const start = h("input", { type: "datetime-local", id: "quote-start", value: localValue(now) });
  const end = h("input", {
    type: "datetime-local",
    id: "quote-end",
    value: localValue(new Date(now.getTime() + 2 * 3_600_000)),
  });
  const quoteOut = h("p", { class: "quote-out", id: "quote-out", "aria-live": "polite" });
  const preview = debounce(async () => {
    if (!lot) return;
    try {
      const q = await api<Quote>(
        "GET",
        `/api/v1/parkings/${lot.id}/quote${query({ start: start.value, end: end.value })}`,
      );
      const flags = [
        q.data.capped_by_max_fee ? t("capped") : "",
        q.data.exceeds_max_time ? t("overMaxTime") : "",
      ].filter(Boolean);
      replace(
        quoteOut,
        t("quoteLine", {
          from: start.value.replace("T", " "),
          to: end.value.replace("T", " "),
          amount: money(q.data.amount_incl_vat, q.data.currency_code),
        }),
        flags.length ? ` (${flags.join(", ")})` : "",
      );
    } catch (e) {
      replace(quoteOut, problemText(e));
    }
  }, 250);
  start.addEventListener("input", preview);
  end.addEventListener("input", preview);
  preview();
  return h(
    "section",
    { class: "quote" },
    h("h2", null, t("quote")),
    // A new lot has no price yet: the endpoint prices saved lots only.
    lot
      ? h("div", { class: "grid" }, h("label", null, t("from"), start), h("label", null, t("to"), end))
      : null,
    lot ? quoteOut : h("p", { class: "note" }, t("quoteSaveFirst")),
  );
}
