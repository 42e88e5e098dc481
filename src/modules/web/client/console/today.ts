import { api } from "../api.ts";
import type { History, LotNow, Revenue } from "../api-types.ts";
import { h, replace } from "../dom.ts";
import { lang, t } from "../i18n.ts";
import { barsAgainst, columns, line } from "./charts.ts";
import { problemText } from "./table.ts";

/** This page's words (kept here: i18n.ts holds the shared ones and is at its size). */
const WORDS = {
  en: {
    occupancyNow: "Occupancy now",
    arrivalsToday: "Arrivals per hour today",
    revenue30: "Revenue, last 30 days ({currency})",
    lotDay: "A lot's day",
    day: "Day",
    occupancyOf: "Tickets in {lot} on {day}",
    noSpacesCounted: "No lot counts its spaces (number_of_spaces).",
  },
  sv: {
    occupancyNow: "Beläggning nu",
    arrivalsToday: "Ankomster per timme i dag",
    revenue30: "Intäkter, senaste 30 dagarna ({currency})",
    lotDay: "En parkerings dag",
    day: "Dag",
    occupancyOf: "Biljetter i {lot} den {day}",
    noSpacesCounted: "Ingen parkering räknar sina platser (number_of_spaces).",
  },
};
type Word = keyof (typeof WORDS)["en"];
const w = (key: Word, vars: Record<string, string> = {}) =>
  WORDS[lang][key].replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? "");

/** The most lots the occupancy bars show: the fullest first. */
const MAX_BARS = 30;

const isoDay = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
const plusDays = (day: string, n: number) => {
  const d = new Date(`${day}T12:00:00`);
  d.setDate(d.getDate() + n);
  return isoDay(d);
};
const hhmm = (iso: string) =>
  new Date(iso).toLocaleTimeString(lang === "sv" ? "sv-SE" : "en-GB", { hour: "2-digit", minute: "2-digit" });

/** The Today page: occupancy per lot against its spaces, today's arrivals, 30 days of revenue, one lot's day. */
export function todayPage(root: HTMLElement): () => void {
  const today = isoDay(new Date());
  const now = h("section", { id: "today-occupancy" });
  const arrivals = h("section", { id: "today-arrivals" });
  const revenue = h("section", { id: "today-revenue" });
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
  // The window's width less the page's margins: the page's own width follows what it holds.
  const width = () => Math.min(760, Math.max(280, document.documentElement.clientWidth - 40));

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
      replace(curve, line(title, lot.tickets, r.at.map(hhmm), lot.spaces, width() < 500 ? 72 : 36, width()));
    } catch (e) {
      replace(curve, problemText(e));
    }
  }

  async function load(): Promise<void> {
    try {
      const [occ, hist, rev] = await Promise.all([
        api<{ lots: LotNow[] }>("GET", "/api/v1/occupancy"),
        api<History>("GET", `/api/v1/occupancy/history?from=${today}&to=${plusDays(today, 1)}&step=60&lot=0`),
        api<Revenue>("GET", `/api/v1/reports/revenue?from=${plusDays(today, -29)}&to=${today}`),
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
      const currency = rev.data[0]?.currency ?? "SEK";
      const byDay = new Map(rev.data.filter((r) => r.currency === currency).map((r) => [r.day, r.gross]));
      const days = Array.from({ length: 30 }, (_, i) => plusDays(today, i - 29));
      replace(
        revenue,
        h("h3", null, w("revenue30", { currency })),
        columns(
          w("revenue30", { currency }),
          days.map((d) => Math.round((byDay.get(d) ?? 0) / 100)),
          days.map((d) => d.slice(8)),
          width() < 500 ? 10 : 5,
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
      revenue,
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
          h("label", { for: "curve-lot" }, t("lots")),
          lotSelect,
          h("label", { for: "curve-day" }, w("day")),
          dayInput,
          h("button", { type: "submit" }, t("show")),
        ),
        curve,
      ),
    ),
  );
  void load();
  const timer = setInterval(() => void load(), 60_000);
  return () => clearInterval(timer);
}
