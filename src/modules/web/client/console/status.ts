import { api } from "../api.ts";
import type { Status } from "../api-types.ts";
import { h, replace } from "../dom.ts";
import { age, bytes, t, when } from "../i18n.ts";
import { problemText, table } from "./table.ts";

/** The office link (serve --central), when there is one. */
function officeSection(
  o: NonNullable<Status["office"]>,
  figure: (label: string, value: string | number, cls?: string) => HTMLElement,
): HTMLElement[] {
  const behind = o.oldest_pending_age_seconds > 15 * 60;
  const out = [
    h("h3", null, t("office", { site: o.site })),
    h(
      "div",
      { class: "figures", id: "office" },
      figure(t("officeReachable"), o.reachable ? "✓" : "✗", o.reachable ? "" : "alarm"),
      figure(
        t("officePending"),
        o.pending_events ? `${o.pending_events} · ${age(o.oldest_pending_age_seconds * 1000)}` : 0,
        behind ? "alarm" : "",
      ),
      figure(t("officeLastPush"), o.last_push_at ? when(o.last_push_at) : t("none")),
      figure(t("officeLastPull"), o.last_pull_at ? when(o.last_pull_at) : t("none")),
      figure(t("officePermits"), o.central_permits),
    ),
  ];
  if (!o.reachable && o.last_error) out.push(h("p", { class: "alarm" }, `${t("error")}: ${o.last_error}`));
  return out;
}

export function statusPage(root: HTMLElement): () => void {
  const box = h("section", { id: "status" });
  const figure = (label: string, value: string | number, cls = "") =>
    h(
      "div",
      { class: `figure ${cls}` },
      h("span", { class: "value" }, String(value)),
      h("span", { class: "label" }, label),
    );
  async function refresh(): Promise<void> {
    try {
      const s = (await api<{ data: Status }>("GET", "/api/v1/status")).data;
      replace(
        box,
        h("h2", null, `${t("status")} · parkd ${s.version}`),
        h(
          "div",
          { class: "figures" },
          figure(t("eventsMinute"), s.events.lastMinute),
          figure(t("eventsHour"), s.events.lastHour),
          figure(t("errors"), s.requests.serverErrors, s.requests.serverErrors ? "alarm" : ""),
          figure(t("clientErrors"), s.requests.clientErrors),
          figure(t("activeTickets"), s.activeTickets ?? t("none")),
          figure(t("activePermits"), s.activePermits ?? t("none")),
          figure(t("storeSize"), bytes(s.storeBytes)),
          figure(t("diskFree"), bytes(s.diskFreeBytes)),
          figure(
            t("storeWritable"),
            s.storeWritable === false ? "✗" : "✓",
            s.storeWritable === false ? "alarm" : "",
          ),
          figure(t("authFailures"), s.authFailuresSinceStart),
          figure(t("memory"), bytes(s.residentMemoryBytes)),
          figure(t("uptime"), age(s.uptimeSeconds * 1000)),
          figure(t("feeds"), s.liveFeeds),
        ),
        h("h3", null, t("lastEvent")),
        table(
          [t("credential"), t("at"), ""],
          s.terminals,
          (x) => [x.credential, when(x.lastAt), `${age(Date.now() - Date.parse(x.lastAt))}`],
          { id: "terminals" },
        ),
        ...(s.office ? officeSection(s.office, figure) : []),
      );
    } catch (e) {
      replace(box, problemText(e));
    }
  }
  void refresh();
  const timer = setInterval(() => void refresh(), 5_000);
  replace(root, box);
  return () => clearInterval(timer);
}
