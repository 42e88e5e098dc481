import type { Found, Verdict } from "./api-types.ts";
import { type Child, h } from "./dom.ts";
import { age, t, when } from "./i18n.ts";
import { siteDay, siteWallTime, siteZone } from "./site-zone.ts";
import { seenAgo, span } from "./spans.ts";

export { span } from "./spans.ts";

/** The interface's timestamps ("…000000Z" with microseconds) as something Date reads. */
export function instant(s: string | null): string | null {
  return s === null ? null : s.replace(/(\.\d{3})\d+Z$/, "$1Z");
}

/** "10:02": a clock time at the site on a 24-hour clock, whatever the phone's locale. */
export function hhmm(ms: number): string {
  const w = siteWallTime(ms);
  return `${String(w.hour).padStart(2, "0")}:${String(w.minute).padStart(2, "0")}`;
}

/** The mark's words: when the car was first seen in this zone today, how long ago, and the limit. */
function markWords(v: Verdict, key: "overTimeLimit" | "markedLine"): string {
  const o = v.observation!;
  return t(key, {
    time: hhmm(Date.parse(instant(o.first_seen_at)!)),
    ago: seenAgo(o.seen_seconds_ago, o.limit_seconds),
    limit: span(o.limit_seconds),
  });
}

/** How each state of the verdict reads: its colour class, its words, and the zone it judged. */
export const LOOKS: Record<
  Verdict["state"],
  { tone: "ok" | "warn" | "bad" | "over"; words: (v: Verdict) => string; judged: (v: Verdict) => string }
> = {
  valid_here: { tone: "ok", words: () => t("validHere"), judged: (v) => t("judgedZone", { zone: v.zone }) },
  valid_elsewhere: {
    tone: "warn",
    words: (v) => t("validInZones", { zones: v.zones.join(", ") }),
    judged: (v) => t("judgedNotZone", { zone: v.zone }),
  },
  grace: { tone: "warn", words: () => t("inGrace"), judged: (v) => t("judgedZone", { zone: v.zone }) },
  over_time_limit: {
    tone: "over",
    words: (v) => markWords(v, "overTimeLimit"),
    judged: (v) => t("judgedZone", { zone: v.zone }),
  },
  outside_hours: {
    tone: "bad",
    words: () => t("outsideHours"),
    judged: (v) => t("judgedZone", { zone: v.zone }),
  },
  none: { tone: "bad", words: () => t("notValid"), judged: (v) => t("judgedZone", { zone: v.zone }) },
};

/** A verdict older than this is shown greyed, as a thing of the past: check again. */
export const STALE_MS = 2 * 60_000;

/** "Checked 10:42:05", or past STALE_MS "Checked 4 min ago: check again". */
export function checkedText(at: number, now: number): string {
  return now - at >= STALE_MS
    ? t("checkedAgo", { age: age(now - at) })
    : t("checkedAt", {
        time: new Date(at).toLocaleTimeString([], {
          hour: "2-digit",
          minute: "2-digit",
          second: "2-digit",
          timeZone: siteZone(),
        }),
      });
}

/** "1 h 20 min", "45 min", "under 1 min", past two days "34 days 9 h": time left until `iso`. */
function left(iso: string, now: number): string {
  const min = Math.floor((Date.parse(iso) - now) / 60_000);
  if (min < 1) return t("leftUnderMinute");
  if (min >= 48 * 60) return t("daysLeft", { d: Math.floor(min / 1440), h: Math.floor((min % 1440) / 60) });
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
}

/** A clock time today (at the site), a date and time otherwise. */
function clock(iso: string): string {
  const d = new Date(iso);
  return siteDay(d.getTime()) === siteDay(Date.now())
    ? d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", timeZone: siteZone() })
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
  // Nothing valid: when the last permit for this zone ended, if one did within the look-back.
  const ends = v.permits
    .filter((p) => p.zone === v.zone && p.state === "ended" && p.end_at !== null)
    .map((p) => Date.parse(instant(p.end_at)!));
  return ends.length ? t("endedAt", { at: clock(new Date(Math.max(...ends)).toISOString()) }) : null;
}

/** One ticket or permit behind a verdict: kind, zone, its state (an ended one says when). */
function behindLine(f: Verdict["permits"][number]): string {
  const state =
    f.state === "ended" && f.end_at
      ? t("endedShort", { at: clock(instant(f.end_at)!) })
      : t(`state_${f.state}`);
  return `${f.kind === "ticket" ? t("kindTicket") : t("kindPermit")} · ${t("zone")} ${f.zone} · ${state}`;
}

/**
 * The verdict block: the state in words and the zone it judged, the plate, how long it holds,
 * when it was checked, and what is behind it. `band`: an offline answer's notice, first.
 */
export function verdictView(v: Verdict, now: number, band?: Child): Child[] {
  const look = LOOKS[v.state];
  const line = verdictLine(v, now);
  const at = Date.parse(instant(v.checked_at)!);
  return [
    band,
    h(
      "p",
      { class: "verdict", "data-verdict": v.state, "data-zone": v.zone },
      look.words(v),
      h("span", { class: "judged-zone" }, ` · ${look.judged(v)}`),
    ),
    h("p", { class: "plate-shown" }, v.permits[0]?.registration_number ?? v.registration_number),
    line ? h("p", { class: "detail", id: "verdict-line" }, line) : null,
    // Under the limit (or with a permit here), the mark is said below the verdict.
    v.observation && v.state !== "over_time_limit"
      ? h("p", { class: "detail", id: "observation-line" }, markWords(v, "markedLine"))
      : null,
    // What the attendant noted at the mark (valve positions): what shows it is the same car.
    v.observation?.note ? h("p", { class: "note-line", id: "observation-note" }, v.observation.note) : null,
    h("p", { class: "checked", id: "checked-at", "data-at": at }, checkedText(at, now)),
    v.permits.length
      ? h(
          "ul",
          { class: "behind" },
          v.permits.map((f) =>
            h(
              "li",
              null,
              behindLine(f),
              f.lot_name ? ` · ${f.lot_name}` : "",
              f.note ? h("span", { class: "note-line" }, f.note) : null,
            ),
          ),
        )
      : // Under OVER TIME LIMIT the mark was found: what is missing is a ticket or permit.
        h(
          "p",
          { class: "detail" },
          t(v.observation ? "noTicketOrPermit" : "nothingFound", { plate: v.registration_number }),
        ),
  ];
}

/**
 * check-tickets' answer, for a check without a zone: where the car is valid, never a plain
 * "valid" (green is for a verdict where the attendant stands), with a reminder to pick the zone.
 */
export function checkTicketsView(p: string, found: Found[], at: number): Child[] {
  const active = found.filter((f) => f.active);
  const recent = found.filter((f) => !f.active);
  const zones = [...new Set(active.map((f) => f.zone))].sort((a, b) => a - b);
  return [
    h(
      "p",
      { class: "verdict", "data-verdict": active.length ? "valid" : "invalid" },
      active.length ? t("validInZones", { zones: zones.join(", ") }) : t("notValid"),
    ),
    h("p", { class: "plate-shown" }, active[0]?.registration_number ?? p.toUpperCase()),
    active.length ? h("p", { class: "detail no-zone" }, t("noZoneChosen")) : null,
    h("p", { class: "checked", id: "checked-at", "data-at": at }, checkedText(at, at)),
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
