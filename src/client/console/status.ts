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
          figure(t("eventsMinute"), s.events.last_minute),
          figure(t("eventsHour"), s.events.last_hour),
          figure(t("errors"), s.requests.server_errors, s.requests.server_errors ? "alarm" : ""),
          figure(t("clientErrors"), s.requests.client_errors),
          figure(t("activeTickets"), s.active_tickets ?? t("none")),
          figure(t("activePermits"), s.active_permits ?? t("none")),
          figure(t("storeSize"), bytes(s.store_bytes)),
          figure(t("diskFree"), bytes(s.disk_free_bytes)),
          figure(
            t("storeWritable"),
            s.store_writable === false ? "✗" : "✓",
            s.store_writable === false ? "alarm" : "",
          ),
          figure(t("authFailures"), s.auth_failures_since_start),
          figure(t("memory"), bytes(s.resident_memory_bytes)),
          figure(t("uptime"), age(s.uptime_seconds * 1000)),
          figure(t("feeds"), s.live_feeds),
        ),
        h("h3", null, t("lastEvent")),
        table(
          [t("credential"), t("at"), ""],
          s.terminals,
          (x) => [x.credential, when(x.last_at), `${age(Date.now() - Date.parse(x.last_at))}`],
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
