import { api, query } from "../api.ts";
import type { Ticket, TicketView } from "../api-types.ts";
import { h, prevented, replace } from "../dom.ts";
import { lang, money, t, when } from "../i18n.ts";
import { pagedList } from "./paged-list.ts";
import { fillFrom, searchOf, timeAndSearch } from "./search-form.ts";
import { type Column, SortedHeadings } from "./sorting.ts";
import { addressed, addressSearch, openingLink, problemText, SCROLLS, table } from "./table.ts";
import { ticketState } from "./ticket-state.ts";

/** The lot a listed ticket names: its name, its id when the box knows no such lot, or none. */
function lotCell(tk: Ticket): string {
  if (tk.parking_lot_id === null) return t("none");
  return tk.lot_name ?? `${tk.parking_lot_id} (${t("unknownLot")})`;
}

/** A ticket's state as a badge, read from its time and events (ticket-state.ts). */
function stateBadge(tk: { status: string; start_at: string; end_at: string | null }) {
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

/** The search's fields, as the address holds them (`#/tickets?state=active&zone=7`). */
const FILTERS = ["registration_number", "zone", "state", "from", "to"] as const;
const STATES = ["active", "not_started", "ended", "canceled"] as const;

/** The tickets page; `ticketId` (from `#/tickets/ID`) opens that ticket. */
export function ticketsPage(root: HTMLElement, _lost: () => void, ticketId?: string): () => void {
  const rows = h("tbody");
  const more = h("button", { type: "button", id: "tickets-more", hidden: true }, t("more"));
  const note = h("p", { class: "note", role: "status" });
  const total = h("p", { class: "total", id: "tickets-total", "aria-live": "polite" });
  const csv = h(
    "a",
    { class: "button", id: "tickets-csv", download: "" },
    t("exportCsv"),
  ) as HTMLAnchorElement;
  const detail = h("div", { class: "editor", id: "ticket-detail" });
  const columns: Column[] = [
    { label: t("ticket"), sort: "ticket_id" },
    { label: t("plate"), sort: "registration_number" },
    { label: t("zone"), sort: "zone" },
    { label: t("lot") },
    { label: t("state") },
    { label: t("start"), sort: "start_at", newestFirst: true },
    { label: t("endShort"), sort: "end_at", newestFirst: true },
    { label: t("amountPaid") },
  ];
  const head = h("thead");
  const given = addressed();
  const headings = new SortedHeadings(given.get("sort") ?? "-start_at", () => void search());
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
      { name: "state", "aria-label": t("state") },
      h("option", { value: "" }, `${t("state")}: ${t("any")}`),
      STATES.map((s) => h("option", { value: s }, t(`ts_${s}`))),
    ),
    timeAndSearch(),
  );
  // A shared link or Back fills the form as it was searched.
  fillFrom(given, form, FILTERS);

  /** The search as the address and the API take it (empty fields left out). */
  const filter = () => searchOf(form, FILTERS);

  const tickets = pagedList<Ticket>({
    path: "/api/v1/tickets",
    more,
    filter: () => ({ ...filter(), sort: headings.sort }),
    show: (page, _next, count) => {
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
            h("td", { class: "plate" }, tk.license_number),
            h("td", null, String(tk.zone)),
            h("td", null, lotCell(tk)),
            h(
              "td",
              null,
              h("span", { class: `state ${tk.state}`, "data-state": tk.state }, t(`ts_${tk.state}`)),
            ),
            h("td", { class: "when" }, when(tk.start_at)),
            h("td", { class: "when" }, when(tk.end_at)),
            h(
              "td",
              { class: "amount" },
              tk.amount_incl_vat === null ? t("none") : money(tk.amount_incl_vat, tk.currency_code ?? "SEK"),
            ),
          ),
        );
      if (count !== null)
        replace(
          total,
          count === 1
            ? t("ticketFound")
            : t("ticketsFound", { n: count.toLocaleString(lang === "sv" ? "sv-SE" : "en-GB") }),
        );
      replace(note, "");
    },
    failed: (e) => replace(note, problemText(e)),
  });

  /** A new search: into the address (Back and a shared link come back to it), then drawn afresh. */
  function search(opening = false): Promise<void> {
    addressSearch({
      form,
      fields: FILTERS,
      page: "#/tickets",
      extra: headings.sort === "-start_at" ? {} : { sort: headings.sort },
      query: { ...filter(), sort: headings.sort },
      csv,
      csvPath: "/api/v1/tickets.csv",
      opening,
    });
    replace(rows);
    replace(total);
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
      const history = table(
        [
          t("received"),
          t("event"),
          t("by"),
          t("outcome"),
          // The body as the terminal sent it: a column with a heading, not an empty one.
          "JSON",
        ],
        [],
        () => [],
        {
          id: "ticket-history",
        },
      );
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
      { class: "tickets-page" },
      detail,
      h(
        "section",
        { "aria-labelledby": "tickets-title" },
        h("h2", { id: "tickets-title", class: "visually-hidden" }, t("tickets")),
        form,
        h("div", { class: "toolbar" }, total, csv),
        note,
        h("table", { id: "tickets-table", ...SCROLLS }, head, rows),
        more,
      ),
    ),
  );
  void search(true);
  if (ticketId) void open(ticketId);
  return () => {};
}
