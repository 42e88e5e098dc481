import { api, query } from "../api.ts";
import type { Ticket, TicketView } from "../api-types.ts";
import { field, h, prevented, replace } from "../dom.ts";
import { money, t, when } from "../i18n.ts";
import { isoOf } from "./datetime.ts";
import { pagedList } from "./paged-list.ts";
import { type Column, SortedHeadings } from "./sorting.ts";
import { openingLink, problemText, SCROLLS, table } from "./table.ts";
import { ticketState } from "./ticket-state.ts";

/** A ticket's state as a badge, read from its time and events (ticket-state.ts). */
function stateBadge(tk: Ticket) {
  const state = ticketState(tk, Date.now());
  return h("span", { class: `state ${state}`, "data-state": state }, t(`ts_${state}`));
}

/** The lot a ticket names, by name when the box knows it. */
async function lotText(v: TicketView): Promise<string> {
  if (v.parking_lot_id === null) return t("noLot");
  if (v.lot_unknown) return `${v.parking_lot_id} (${t("unknownLot")})`;
  try {
    const lot = await api<{ data: { name: string } }>("GET", `/api/v1/parkings/${v.parking_lot_id}`);
    return `${v.parking_lot_id} · ${lot.data.name}`;
  } catch {
    return String(v.parking_lot_id);
  }
}

/** The tickets page; `ticketId` (from `#/tickets/ID`) opens that ticket. */
export function ticketsPage(root: HTMLElement, _lost: () => void, ticketId?: string): () => void {
  const rows = h("tbody");
  const more = h("button", { type: "button", id: "tickets-more", hidden: true }, t("more"));
  const note = h("p", { class: "note", role: "status" });
  const detail = h("div", { class: "editor", id: "ticket-detail" });
  const columns: Column[] = [
    { label: t("ticket"), sort: "ticket_id" },
    { label: t("plate"), sort: "registration_number" },
    { label: t("zone"), sort: "zone" },
    { label: t("state") },
    { label: t("start"), sort: "start_at", newestFirst: true },
    { label: t("endShort"), sort: "end_at", newestFirst: true },
  ];
  const head = h("thead");
  const headings = new SortedHeadings("-start_at", () => void search());
  const form = h(
    "form",
    {
      class: "toolbar",
      id: "ticket-search",
      onsubmit: prevented((): void => void search()),
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

  const tickets = pagedList<Ticket>({
    path: "/api/v1/tickets",
    more,
    filter: () => ({
      registration_number: field(form, "registration_number"),
      zone: field(form, "zone"),
      status: field(form, "status"),
      from: isoOf(field(form, "from")),
      to: isoOf(field(form, "to")),
      sort: headings.sort,
    }),
    show: (page) => {
      for (const tk of page)
        rows.appendChild(
          h(
            "tr",
            null,
            h(
              "td",
              null,
              openingLink(`#/tickets/${encodeURIComponent(tk.ticket_id)}`, tk.ticket_id, () =>
                open(tk.ticket_id),
              ),
            ),
            h("td", null, tk.license_number),
            h("td", null, String(tk.zone)),
            h("td", null, stateBadge(tk)),
            h("td", null, when(tk.start_at)),
            h("td", null, when(tk.end_at)),
          ),
        );
      replace(note, "");
    },
    failed: (e) => replace(note, problemText(e)),
  });
  /** A new search: the list and its headings drawn afresh at once, the first page when it comes. */
  function search(): Promise<void> {
    replace(rows);
    replace(head, headings.row(columns));
    return tickets.search();
  }

  /** The ticket asked for last: an earlier answer arriving late is not shown over it. */
  let asked = 0;
  async function open(id: string): Promise<void> {
    // By query, not path: a path cannot carry the ids "." and "..", which a terminal may send.
    const page = (events_cursor: string | null) => `/api/v1/ticket${query({ ticket_id: id, events_cursor })}`;
    const mine = ++asked;
    try {
      const v = (await api<{ data: TicketView }>("GET", page(null))).data;
      if (mine !== asked) return;
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
                when(ev.received_at),
                ev.event_type,
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
        // One page at a time: a second click before the answer would add the same page twice.
        more.disabled = true;
        try {
          const next = (await api<{ data: TicketView }>("GET", page(cursor))).data;
          if (mine === asked) add(next);
        } catch (e) {
          if (mine === asked) replace(detail, problemText(e));
        } finally {
          more.disabled = false;
        }
      });
      add(v);
      const cost = v.ticket_cost;
      const facts: [string, string | Node][] = [
        [t("state"), stateBadge(v)],
        [t("zone"), String(v.zone)],
        [t("lot"), await lotText(v)],
        [t("start"), when(v.start_at)],
        [t("endShort"), when(v.end_at)],
        [
          t("amountPaid"),
          cost.amount_incl_vat === null
            ? t("none")
            : money(cost.amount_incl_vat, cost.currency_code ?? "SEK"),
        ],
        [t("vatRate"), cost.vat_rate === null ? t("none") : `${cost.vat_rate} %`],
      ];
      replace(
        detail,
        h("h2", null, `${t("ticket")} ${v.ticket_id} · ${v.license_number}`),
        h(
          "dl",
          { class: "facts", id: "ticket-facts" },
          facts.map(([k, x]) => [h("dt", null, k), h("dd", null, x)]),
        ),
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
      h("section", null, form, note, h("table", { id: "tickets-table", ...SCROLLS }, head, rows), more),
      detail,
    ),
  );
  void search();
  if (ticketId) void open(ticketId);
  return () => {};
}
