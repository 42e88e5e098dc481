import { api, query, versioned } from "../api.ts";
import type { Permit } from "../api-types.ts";
import { field, h, prevented, replace } from "../dom.ts";
import { list, t, when } from "../i18n.ts";
import { objectHistory } from "./changes.ts";
import { isStale, myChanges, whenStale } from "./conflict.ts";
import { asShown, isoOf, localValue } from "./datetime.ts";
import { fieldLabels } from "./field-labels.ts";
import { RowsEditor } from "./rows.ts";
import { SortedHeadings } from "./sorting.ts";
import { openingLink, problemText, table } from "./table.ts";

type Window = Permit["days"][number];

/** The permit's windows as the form shows them: days sharing a time range in one row. */
function windowRows(days: readonly Window[]): Record<string, unknown>[] {
  const rows = new Map<string, { weekdays: number[]; start_time: string; end_time: string }>();
  for (const d of days) {
    const key = `${d.start_time}-${d.end_time}`;
    const row = rows.get(key) ?? { weekdays: [], start_time: d.start_time, end_time: d.end_time };
    row.weekdays.push(d.weekday);
    rows.set(key, row);
  }
  return [...rows.values()].map((r) => ({ ...r, weekdays: r.weekdays.sort((a, b) => a - b) }));
}

/** The form's rows as the API's windows: one per day of each row. */
function windowsOf(rows: Record<string, unknown>[]): Window[] {
  return rows
    .flatMap((r) =>
      (r.weekdays as number[]).map((weekday) => ({
        weekday,
        start_time: r.start_time as string,
        end_time: r.end_time as string,
      })),
    )
    .sort(byDayAndTime);
}

/** Windows in one order, the box's and the form's alike, so unchanged windows read as unchanged. */
const byDayAndTime = (a: Window, b: Window) =>
  a.weekday - b.weekday || a.start_time.localeCompare(b.start_time);

/**
 * What a permit is now, said in words: active; or why not: outside its weekly hours, ended, not
 * started. A blank would read as "nothing to say" for a resident's permit outside its hours.
 */
function permitState(p: Permit) {
  const now = Date.now();
  const state = p.active
    ? "active"
    : p.end_at !== null && Date.parse(p.end_at) <= now
      ? "ended"
      : Date.parse(p.start_at) > now
        ? "not_started"
        : "outside_hours";
  const words = {
    active: t("active"),
    ended: t("permitEnded"),
    not_started: t("permitNotStarted"),
    outside_hours: t("permitOutsideHours"),
  };
  return h("span", { class: `state ${state}`, "data-permit-state": state }, words[state]);
}

/** The permits page; `permitId` (from `#/permits/ID`) opens that permit. */
export function permitsPage(root: HTMLElement, _lost: () => void, permitId?: string): () => void {
  const listBox = h("div", { class: "list", id: "permits-list" });
  const editor = h("div", { class: "editor", id: "permit-editor" });
  const note = h("p", { class: "note", role: "status" });
  const filter = h(
    "form",
    { class: "toolbar", id: "permit-filter", onsubmit: prevented(() => load()) },
    h("input", { name: "registration_number", placeholder: t("plate"), "aria-label": t("plate") }),
    h("input", { name: "zone", type: "number", min: 0, placeholder: t("zone"), "aria-label": t("zone") }),
    h("button", { type: "submit" }, t("filter")),
    h("button", { type: "button", id: "new-permit", onclick: () => edit(null) }, `+ ${t("newPermit")}`),
  );

  const headings = new SortedHeadings("id", () => void load());

  /** The list asked for last: an answer to an earlier one (a sort clicked twice) is dropped. */
  let loads = 0;
  async function load(openId?: number): Promise<void> {
    const mine = ++loads;
    try {
      const q = query({
        registration_number: field(filter, "registration_number"),
        zone: field(filter, "zone"),
        sort: headings.sort,
      });
      const permits = (await api<{ data: Permit[] }>("GET", `/api/v1/permits${q}`)).data;
      if (mine !== loads) return;
      replace(
        listBox,
        table(
          headings.cells([
            { label: t("plate"), sort: "registration_number" },
            { label: t("zone"), sort: "zone" },
            { label: t("start"), sort: "start_at", newestFirst: true },
            { label: t("endShort"), sort: "end_at", newestFirst: true },
            { label: t("state") },
            { label: t("note") },
          ]),
          permits,
          (p) => [
            openingLink(`#/permits/${p.id}`, p.registration_number, () => open(p.id), {
              "data-permit": p.id,
            }),
            String(p.zone),
            when(p.start_at),
            when(p.end_at),
            permitState(p),
            h("span", { class: "note-text", title: p.note ?? "" }, p.note ?? ""),
          ],
        ),
      );
      if (openId !== undefined) await open(openId);
    } catch (e) {
      if (mine === loads) replace(note, problemText(e));
    }
  }

  /** Opens a permit as the box holds it now, with that version's ETag (never the list's copy). */
  async function open(id: number): Promise<void> {
    try {
      const r = await versioned<{ data: Permit }>("GET", `/api/v1/permits/${id}`);
      edit(r.data.data, r.etag);
    } catch (e) {
      replace(editor, h("p", { class: "error", role: "alert" }, problemText(e)));
    }
  }

  function edit(p: Permit | null, version: string | null = null): void {
    const windows = new RowsEditor(
      "permit-windows",
      t("windows"),
      [
        { name: "weekdays", label: t("days"), kind: "days", options: list("weekdays") },
        { name: "start_time", label: t("from"), kind: "time" },
        { name: "end_time", label: t("to"), kind: "time" },
      ],
      { weekdays: [1, 2, 3, 4, 5], start_time: "07:00:00", end_time: "18:00:00" },
      windowRows(p?.days ?? []),
    );
    const status = h("p", { class: "note", role: "status", id: "permit-status" });
    const conflict = h("div");
    // The version the form was opened on: writes carry it (If-Match), so none undoes another's.
    let etag = version;
    // What the form was opened on, its windows in the form's order: the base of a merge.
    const normal = (r: Permit) => ({ ...r, days: [...r.days].sort(byDayAndTime) });
    const base = p ? normal(p) : null;
    /** Someone changed the permit meanwhile: the form stays as it is, and the operator chooses. */
    const stale = (mine: Record<string, unknown>, retry: () => Promise<void>, deleting = false) =>
      whenStale<Permit>(conflict, `/api/v1/permits/${p!.id}`, base, mine, deleting, fieldLabels("permit"), {
        reopen: edit,
        normal,
        retry: (version) => {
          etag = version;
          void retry();
        },
      });
    const form = h(
      "form",
      { id: "permit-form", onsubmit: prevented(() => save()) },
      h("h2", null, p ? `${p.registration_number} (#${p.id})` : t("newPermit")),
      h(
        "div",
        { class: "grid" },
        h(
          "label",
          null,
          t("plate"),
          h("input", { name: "registration_number", required: true, value: p?.registration_number ?? "" }),
        ),
        h(
          "label",
          null,
          t("zone"),
          h("input", { name: "zone", type: "number", min: 0, required: true, value: p?.zone ?? "" }),
        ),
        h(
          "label",
          null,
          t("start"),
          h("input", {
            name: "start_at",
            type: "datetime-local",
            required: true,
            value: localValue(p?.start_at ?? new Date()),
          }),
        ),
        h(
          "label",
          null,
          t("end"),
          h("input", { name: "end_at", type: "datetime-local", value: localValue(p?.end_at ?? null) }),
        ),
        h(
          "label",
          { class: "wide" },
          t("note"),
          h("input", { name: "note", maxlength: 500, value: p?.note ?? "" }),
        ),
      ),
      windows.element,
      conflict,
      h(
        "div",
        { class: "actions" },
        h("button", { type: "submit", class: "primary" }, t("save")),
        p
          ? h("button", { type: "button", class: "danger", onclick: () => void remove() }, t("delete"))
          : null,
        status,
      ),
    );
    async function save(): Promise<void> {
      const end = field(form, "end_at");
      const body = {
        registration_number: field(form, "registration_number"),
        zone: Number(field(form, "zone")),
        // Typed as wall time at the site, wherever the browser is; a time left as shown keeps the
        // instant stored (its seconds, and which of a repeated hour at the clocks' change it was).
        start_at: asShown(field(form, "start_at"), p?.start_at ?? null) ?? isoOf(field(form, "start_at")),
        end_at: end ? (asShown(end, p?.end_at ?? null) ?? isoOf(end) ?? null) : null,
        note: field(form, "note"),
        days: windowsOf(windows.values()),
      };
      if (windows.values().some((r) => (r.weekdays as number[]).length === 0)) {
        replace(status, h("span", { class: "error", role: "alert" }, t("chooseDays")));
        return;
      }
      await write(body, false);
    }
    /** The whole form, or after a conflict only the fields changed in it (another's others stay). */
    async function write(body: Record<string, unknown>, onlyMine: boolean): Promise<void> {
      try {
        const saved = p
          ? await versioned<{ data: Permit }>(
              onlyMine ? "PATCH" : "PUT",
              `/api/v1/permits/${p.id}`,
              onlyMine && base ? myChanges(base, body) : body,
              etag,
            )
          : await versioned<{ data: Permit }>("POST", "/api/v1/permits", body);
        // The answer carries the new version: the next save is made against it.
        edit(saved.data.data, saved.etag);
        await load();
      } catch (e) {
        if (isStale(e)) await stale(body, () => write(body, true));
        else replace(status, `${t("error")}: ${problemText(e)}`);
      }
    }
    async function remove(): Promise<void> {
      if (!p || !confirm(t("confirmDelete"))) return;
      try {
        await versioned("DELETE", `/api/v1/permits/${p.id}`, undefined, etag);
        replace(editor);
        await load();
      } catch (e) {
        if (isStale(e)) await stale({}, remove, true);
        else replace(status, problemText(e));
      }
    }
    replace(editor, form, p ? objectHistory("permit", p.id) : null);
  }

  replace(root, h("div", { class: "split" }, h("section", null, filter, note, listBox), editor));
  void load(permitId && /^[0-9]{1,10}$/.test(permitId) ? Number(permitId) : undefined);
  return () => {};
}
