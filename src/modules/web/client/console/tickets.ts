import { api, query } from "../api.ts";
import { field, h, prevented, replace } from "../dom.ts";
import { t, when } from "../i18n.ts";
import { problemText, table } from "./table.ts";

interface Ticket {
  ticketId: string;
  status: string;
  zone: number;
  parkingLotId: number | null;
  licenseNumber: string;
  startAt: string;
  endAt: string | null;
}

interface TicketView extends Ticket {
  events: {
    seq: number;
    eventType: string;
    receivedAt: string;
    credential: string;
    outcome: string;
    body: unknown;
  }[];
  events_next_cursor: string | null;
}

export function ticketsPage(root: HTMLElement): () => void {
  const rows = h("tbody");
  const more = h("button", { type: "button", id: "tickets-more", hidden: true }, t("more"));
  const note = h("p", { class: "note", role: "status" });
  const detail = h("div", { class: "editor", id: "ticket-detail" });
  let cursor: string | null = null;
  const form = h(
    "form",
    {
      class: "toolbar",
      id: "ticket-search",
      onsubmit: prevented(() => search(false)),
    },
    h("input", { name: "registration_number", placeholder: t("plate"), "aria-label": t("plate") }),
    h("input", { name: "zone", type: "number", min: 0, placeholder: t("zone"), "aria-label": t("zone") }),
    h(
      "select",
      { name: "status", "aria-label": t("state") },
      h("option", { value: "" }, `${t("state")}: ${t("any")}`),
      ["running", "stopped", "canceled"].map((s) => h("option", { value: s }, s)),
    ),
    h("input", { name: "from", type: "datetime-local", "aria-label": t("from") }),
    h("input", { name: "to", type: "datetime-local", "aria-label": t("to") }),
    h("button", { type: "submit" }, t("search")),
  );
  const iso = (v: string) => (v ? new Date(v).toISOString() : undefined);

  async function search(next: boolean): Promise<void> {
    if (!next) {
      cursor = null;
      replace(rows);
    }
    try {
      const page = await api<{ data: Ticket[]; next_cursor: string | null }>(
        "GET",
        `/api/v1/tickets${query({
          registration_number: field(form, "registration_number"),
          zone: field(form, "zone"),
          status: field(form, "status"),
          from: iso(field(form, "from")),
          to: iso(field(form, "to")),
          cursor: next ? cursor : undefined,
        })}`,
      );
      for (const tk of page.data)
        rows.appendChild(
          h(
            "tr",
            null,
            h(
              "td",
              null,
              h("a", { href: "#/tickets", onclick: prevented(() => open(tk.ticketId)) }, tk.ticketId),
            ),
            h("td", null, tk.licenseNumber),
            h("td", null, String(tk.zone)),
            h("td", null, h("span", { class: `state ${tk.status}` }, tk.status)),
            h("td", null, when(tk.startAt)),
            h("td", null, when(tk.endAt)),
          ),
        );
      cursor = page.next_cursor;
      more.hidden = cursor === null;
      replace(note, "");
    } catch (e) {
      replace(note, problemText(e));
    }
  }
  more.addEventListener("click", () => void search(true));

  async function open(id: string): Promise<void> {
    const path = `/api/v1/tickets/${encodeURIComponent(id)}`;
    try {
      const v = (await api<{ data: TicketView }>("GET", path)).data;
      const history = table([t("received"), t("event"), t("by"), t("outcome"), ""], [], () => [], {
        id: "ticket-history",
      });
      const rows = history.querySelector("tbody")!;
      const more = h("button", { type: "button", id: "history-more", hidden: true }, t("more"));
      let cursor: string | null = null;
      const add = (page: TicketView) => {
        for (const ev of page.events)
          rows.appendChild(
            h(
              "tr",
              null,
              [
                when(ev.receivedAt),
                ev.eventType,
                ev.credential,
                ev.outcome,
                h(
                  "details",
                  null,
                  h("summary", null, "JSON"),
                  h("pre", null, JSON.stringify(ev.body, null, 2)),
                ),
              ].map((c) => h("td", null, c)),
            ),
          );
        // The box hands the history out a page at a time.
        cursor = page.events_next_cursor;
        more.hidden = cursor === null;
      };
      more.addEventListener("click", async () => {
        try {
          add((await api<{ data: TicketView }>("GET", `${path}${query({ events_cursor: cursor })}`)).data);
        } catch (e) {
          replace(detail, problemText(e));
        }
      });
      add(v);
      replace(
        detail,
        h("h2", null, `${t("ticket")} ${v.ticketId} · ${v.licenseNumber}`),
        h("p", null, `${t("zone")} ${v.zone} · ${v.status} · ${when(v.startAt)} – ${when(v.endAt)}`),
        h("h3", null, t("history")),
        history,
        more,
      );
    } catch (e) {
      replace(detail, problemText(e));
    }
  }

  replace(
    root,
    h(
      "div",
      { class: "split" },
      h(
        "section",
        null,
        form,
        note,
        h(
          "table",
          { id: "tickets-table" },
          h(
            "thead",
            null,
            h(
              "tr",
              null,
              [t("ticket"), t("plate"), t("zone"), t("state"), t("start"), t("endShort")].map((x) =>
                h("th", null, x),
              ),
            ),
          ),
          rows,
        ),
        more,
      ),
      detail,
    ),
  );
  void search(false);
  return () => {};
}
