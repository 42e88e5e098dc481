import type { Found, Verdict } from "./api-types.ts";
import { type Child, h } from "./dom.ts";
import { t, when } from "./i18n.ts";

/** The interface's timestamps ("…000000Z" with microseconds) as something Date reads. */
export function instant(s: string | null): string | null {
  return s === null ? null : s.replace(/(\.\d{3})\d+Z$/, "$1Z");
}

/** How each state of the verdict reads: its colour class and its words. */
export const LOOKS: Record<Verdict["state"], { tone: "ok" | "warn" | "bad"; words: (v: Verdict) => string }> =
  {
    valid_here: { tone: "ok", words: () => t("validHere") },
    valid_elsewhere: { tone: "warn", words: (v) => t("validInZones", { zones: v.zones.join(", ") }) },
    grace: { tone: "warn", words: () => t("inGrace") },
    outside_hours: { tone: "bad", words: () => t("outsideHours") },
    none: { tone: "bad", words: () => t("notValid") },
  };

/** "1 h 20 min", "45 min", "under 1 min": time left until `iso`. */
function left(iso: string, now: number): string {
  const min = Math.floor((Date.parse(iso) - now) / 60_000);
  if (min < 1) return t("leftUnderMinute");
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** A clock time today, a date and time otherwise. */
function clock(iso: string): string {
  const d = new Date(iso);
  return d.toDateString() === new Date().toDateString()
    ? d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : when(iso);
}

/** The line under the verdict: how long it holds, or when it would. */
function verdictLine(v: Verdict, now: number): string | null {
  const until = instant(v.valid_until);
  if ((v.state === "valid_here" || v.state === "valid_elsewhere") && until)
    return t("timeLeft", { left: left(until, now), until: clock(until) });
  if (v.state === "valid_here" || v.state === "valid_elsewhere") return t("openEnded");
  if (v.state === "grace" && until && v.ended_at)
    return t("graceEnds", { ended: clock(instant(v.ended_at)!), until: clock(until) });
  if (v.state === "outside_hours")
    return v.next_opening ? t("nextOpening", { at: clock(instant(v.next_opening)!) }) : t("noNextOpening");
  return null;
}

/** The verdict block: the state in words, the plate, how long it holds, and what is behind it. */
export function verdictView(v: Verdict, now: number): Child[] {
  const look = LOOKS[v.state];
  const line = verdictLine(v, now);
  return [
    h("p", { class: "verdict", "data-verdict": v.state }, look.words(v)),
    h("p", { class: "plate-shown" }, v.permits[0]?.registration_number ?? v.registration_number),
    line ? h("p", { class: "detail", id: "verdict-line" }, line) : null,
    v.permits.length
      ? h(
          "ul",
          { class: "behind" },
          v.permits.map((f) =>
            h(
              "li",
              null,
              `${f.kind === "ticket" ? t("kindTicket") : t("kindPermit")} · ${t("zone")} ${f.zone} · ${t(`state_${f.state}`)}`,
              f.lot_name ? ` · ${f.lot_name}` : "",
              f.note ? h("span", { class: "note-line" }, f.note) : null,
            ),
          ),
        )
      : h("p", { class: "detail" }, t("nothingFound", { plate: v.registration_number })),
  ];
}

export function checkTicketsView(p: string, found: Found[]): Child[] {
  const active = found.filter((f) => f.active);
  const recent = found.filter((f) => !f.active);
  return [
    h(
      "p",
      { class: "verdict", "data-verdict": active.length ? "valid" : "invalid" },
      active.length ? t("valid") : t("notValid"),
    ),
    h("p", { class: "plate-shown" }, active[0]?.registration_number ?? p.toUpperCase()),
    active.map((f) =>
      h(
        "p",
        { class: "detail" },
        `${t("zone")} ${f.zone} · ${f.end_at ? t("validUntil", { until: when(instant(f.end_at)) }) : t("openEnded")}`,
        f.note ? h("span", { class: "note-line" }, f.note) : null,
      ),
    ),
    !found.length ? h("p", { class: "detail" }, t("nothingFound", { plate: p })) : null,
    recent.length
      ? h(
          "div",
          { class: "recent" },
          h("h3", null, t("recent")),
          h(
            "ul",
            null,
            recent.map((f) =>
              h(
                "li",
                null,
                `${f.registration_number} · ${t("zone")} ${f.zone} · ${when(instant(f.start_at))} – ${when(instant(f.end_at))}`,
              ),
            ),
          ),
        )
      : null,
  ];
}
