import { api } from "../api.ts";
import type { History, LotNow, Revenue } from "../api-types.ts";
import { h, replace } from "../dom.ts";
import { lang, money, t } from "../i18n.ts";
import { siteDay, siteZone } from "../site-zone.ts";
import { barsAgainst, columns, line } from "./charts.ts";
import { problemText } from "./table.ts";

/** This page's words (kept here: i18n.ts holds the shared ones and is at its size). */
const WORDS = {
  en: {
    occupancyNow: "Occupancy now",
    arrivalsToday: "Arrivals per hour today",
    revenue: "Revenue",
    revenuePerDay: "Revenue per day ({currency})",
    revenuePerLot: "Revenue per lot ({currency})",
    revenueTotal: "Total {amount} · {tickets} tickets",
    perDay: "per day",
    perLot: "per lot",
    group: "Rows",
    downloadCsv: "Download CSV",
    noRevenue: "No revenue in these days.",
    noLot: "No lot",
    now: "now",
    lotDay: "A lot's day",
    day: "Day",
    occupancyOf: "Tickets in {lot} on {day}",
    noSpacesCounted: "No lot counts its spaces (number_of_spaces).",
  },
  sv: {
    occupancyNow: "Beläggning nu",
    arrivalsToday: "Ankomster per timme i dag",
    revenue: "Intäkter",
    revenuePerDay: "Intäkter per dag ({currency})",
    revenuePerLot: "Intäkter per parkering ({currency})",
    revenueTotal: "Summa {amount} · {tickets} biljetter",
    perDay: "per dag",
    perLot: "per parkering",
    group: "Rader",
    downloadCsv: "Ladda ned CSV",
    noRevenue: "Inga intäkter de här dagarna.",
    noLot: "Ingen parkering",
    now: "nu",
    lotDay: "En parkerings dag",
    day: "Dag",
    occupancyOf: "Biljetter i {lot} den {day}",
    noSpacesCounted: "Ingen parkering räknar sina platser (number_of_spaces).",
  },
};
type Word = keyof (typeof WORDS)["en"];
const w = (key: Word, vars: Record<string, string> = {}) =>
  WORDS[lang][key].replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? "");

/** A label and its field, kept together on one line when the form wraps. */
const pair = (label: HTMLElement, input: HTMLElement) => h("span", { class: "pair" }, label, input);

/** The most lots the occupancy bars show: the fullest first. */
const MAX_BARS = 30;

/** The site's day (site-zone.ts) at an instant, as the reports name days. */
const isoDay = (d: Date) => siteDay(d.getTime());
/** A day's name n days on: calendar arithmetic, the same in every zone. */
const plusDays = (day: string, n: number) => {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const hhmm = (iso: string) =>
  new Date(iso).toLocaleTimeString(lang === "sv" ? "sv-SE" : "en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: siteZone(),
  });

/**
 * The Today page: occupancy per lot against its spaces, today's arrivals, revenue per day and per
 * lot over chosen days (with their figures, and the report as CSV), one lot's day up to now.
 */
export function todayPage(root: HTMLElement): () => void {
  const today = isoDay(new Date());
  const now = h("section", { id: "today-occupancy" });
  const arrivals = h("section", { id: "today-arrivals" });
  const curve = h("div", { id: "lot-curve" });
  const lotSelect = h("select", { id: "curve-lot", name: "lot" }) as HTMLSelectElement;
  const dayInput = h("input", {
    id: "curve-day",
    name: "day",
    type: "date",
    value: today,
    max: today,
  }) as HTMLInputElement;

  /** Charts are drawn in the pixels of the column they sit in (charts.ts). */
  // The page's own width (the window's less its margins before the page is drawn): the charts
  // take the whole of it, up to 1600 px, at a desk as on a phone.
  const width = () =>
    Math.min(1600, Math.max(280, root.clientWidth || document.documentElement.clientWidth - 40));

  async function showCurve(): Promise<void> {
    const id = lotSelect.value;
    if (!id) return;
    const day = dayInput.value || today;
    try {
      const q = `from=${day}&to=${plusDays(day, 1)}&lot=${id}`;
      const r = await api<History>("GET", `/api/v1/occupancy/history?${q}`);
      const lot = r.lots[0];
      if (!lot) return replace(curve, "");
      const title = w("occupancyOf", { lot: lot.name ?? `#${lot.id}`, day });
      // Today's line stops at the present step: later steps have not happened yet.
      const past = r.at.filter((at) => Date.parse(at) <= Date.now()).length;
      const now = past > 0 && past < r.at.length ? { index: past - 1, text: w("now") } : undefined;
      replace(
        curve,
        line(title, lot.tickets, r.at.map(hhmm), lot.spaces, width() < 500 ? 72 : 36, width(), now),
      );
    } catch (e) {
      replace(curve, problemText(e));
    }
  }

  const revFrom = h("input", {
    id: "revenue-from",
    name: "from",
    type: "date",
    value: plusDays(today, -29),
    max: today,
  }) as HTMLInputElement;
  const revTo = h("input", {
    id: "revenue-to",
    name: "to",
    type: "date",
    value: today,
    max: today,
  }) as HTMLInputElement;
  const revGroup = h(
    "select",
    { id: "revenue-group", name: "group" },
    h("option", { value: "day" }, w("perDay")),
    h("option", { value: "lot" }, w("perLot")),
  ) as HTMLSelectElement;
  const csvLink = h(
    "a",
    { class: "button", id: "revenue-csv", download: "" },
    w("downloadCsv"),
  ) as HTMLAnchorElement;
  const revenueCharts = h("div", { id: "revenue-charts" });
  const kr = (ore: number, currency: string) =>
    new Intl.NumberFormat(lang === "sv" ? "sv-SE" : "en-GB", {
      style: "currency",
      currency,
      maximumFractionDigits: 0,
    }).format(ore / 100);

  /** Revenue per day and per lot over the chosen days, with their figures, and the CSV of them. */
  async function showRevenue(): Promise<void> {
    const from = revFrom.value || plusDays(today, -29);
    const to = revTo.value || today;
    const q = new URLSearchParams({
      from,
      to,
      group: revGroup.value,
      variant: lang === "sv" ? "se" : "rfc4180",
      totals: "true",
    });
    csvLink.href = `/api/v1/reports/revenue.csv?${q}`;
    try {
      const [days, lots, known] = await Promise.all([
        api<Revenue>("GET", `/api/v1/reports/revenue?from=${from}&to=${to}&group=day`),
        api<Revenue>("GET", `/api/v1/reports/revenue?from=${from}&to=${to}&group=lot`),
        api<{ data: { id: number; name: string }[] }>("GET", "/api/v1/parkings"),
      ]);
      const currency = days.data[0]?.currency ?? "SEK";
      const mine = (rows: Revenue["data"]) => rows.filter((r) => r.currency === currency);
      const byDay = new Map(mine(days.data).map((r) => [r.day, r.gross]));
      const dates: string[] = [];
      for (let d = from; d <= to && dates.length < 367; d = plusDays(d, 1)) dates.push(d);
      const gross = dates.map((d) => byDay.get(d) ?? 0);
      const names = new Map(known.data.map((l) => [l.id, l.name]));
      const perLot = mine(lots.data).sort((a, b) => b.gross - a.gross);
      const top = Math.max(1, ...perLot.map((r) => r.gross));
      const total = mine(days.data).reduce((n, r) => n + r.gross, 0);
      const tickets = mine(days.data).reduce((n, r) => n + r.tickets, 0);
      const narrow = width() < 500;
      replace(
        revenueCharts,
        h(
          "p",
          { class: "revenue-total", id: "revenue-total" },
          w("revenueTotal", { amount: money(total, currency), tickets: String(tickets) }),
        ),
        h("h4", null, w("revenuePerDay", { currency })),
        columns(
          w("revenuePerDay", { currency }),
          gross.map((g) => g / 100),
          dates.map((d) => d.slice(8)),
          Math.max(1, Math.ceil(dates.length / (narrow ? 6 : 15))),
          width(),
          gross.map((g) => kr(g, currency)),
        ),
        h("h4", null, w("revenuePerLot", { currency })),
        perLot.length
          ? barsAgainst(
              w("revenuePerLot", { currency }),
              perLot.map((r) => ({
                label:
                  r.parking_lot_id === null || r.parking_lot_id === undefined
                    ? w("noLot")
                    : (names.get(r.parking_lot_id) ?? `#${r.parking_lot_id}`),
                value: r.gross,
                of: top,
                text: kr(r.gross, currency),
              })),
              width(),
            )
          : h("p", null, w("noRevenue")),
      );
    } catch (e) {
      replace(revenueCharts, problemText(e));
    }
  }

  async function load(): Promise<void> {
    try {
      const [occ, hist] = await Promise.all([
        api<{ lots: LotNow[] }>("GET", "/api/v1/occupancy"),
        api<History>("GET", `/api/v1/occupancy/history?from=${today}&to=${plusDays(today, 1)}&step=60&lot=0`),
      ]);
      const counted = occ.lots
        .filter((l) => l.spaces > 0 && l.name !== null)
        .sort((a, b) => (b.percent ?? 0) - (a.percent ?? 0))
        .slice(0, MAX_BARS);
      replace(
        now,
        h("h3", null, w("occupancyNow")),
        counted.length
          ? barsAgainst(
              w("occupancyNow"),
              counted.map((l) => ({
                label: l.name!,
                value: l.tickets,
                of: l.spaces,
                text: `${l.tickets}/${l.spaces}`,
              })),
              width(),
            )
          : h("p", null, w("noSpacesCounted")),
      );
      replace(
        arrivals,
        h("h3", null, w("arrivalsToday")),
        columns(
          w("arrivalsToday"),
          hist.arrivals,
          hist.at.map((a) => hhmm(a).slice(0, 2)),
          width() < 500 ? 6 : 3,
          width(),
        ),
      );
      if (lotSelect.options.length === 0) {
        for (const l of occ.lots.filter((x) => x.name !== null))
          lotSelect.append(h("option", { value: String(l.id) }, l.name!));
        void showCurve();
      }
    } catch (e) {
      replace(now, problemText(e));
    }
  }

  replace(
    root,
    h(
      "section",
      { id: "today", class: "charts" },
      h("h2", null, t("today")),
      now,
      arrivals,
      h(
        "section",
        { id: "today-revenue" },
        h("h3", null, w("revenue")),
        h(
          "form",
          {
            class: "inline",
            id: "revenue-range",
            onsubmit: (e: Event) => {
              e.preventDefault();
              void showRevenue();
            },
          },
          pair(h("label", { for: "revenue-from" }, t("from")), revFrom),
          pair(h("label", { for: "revenue-to" }, t("to")), revTo),
          pair(h("label", { for: "revenue-group" }, w("group")), revGroup),
          h("button", { type: "submit" }, t("show")),
          csvLink,
        ),
        revenueCharts,
      ),
      h(
        "section",
        { id: "today-lot" },
        h("h3", null, w("lotDay")),
        h(
          "form",
          {
            class: "inline",
            onsubmit: (e: Event) => {
              e.preventDefault();
              void showCurve();
            },
          },
          pair(h("label", { for: "curve-lot" }, t("lot")), lotSelect),
          pair(h("label", { for: "curve-day" }, w("day")), dayInput),
          h("button", { type: "submit" }, t("show")),
        ),
        curve,
      ),
    ),
  );
  void load();
  void showRevenue();
  revGroup.addEventListener("change", () => void showRevenue());
  const timer = setInterval(() => void load(), 60_000);
  return () => clearInterval(timer);
}
