import { api, query, versioned } from "../api.ts";
import { field, h, prevented, replace } from "../dom.ts";
import { list, t, when } from "../i18n.ts";
import { conflictNotice, isStale } from "./conflict.ts";
import { RowsEditor } from "./rows.ts";
import { problemText, table } from "./table.ts";

interface Permit {
  id: number;
  registration_number: string;
  zone: number;
  start_at: string;
  end_at: string | null;
  note: string;
  days: { weekday: number; start_time: string; end_time: string }[];
  active: boolean;
}

/** An instant as a datetime-local value in this browser's time (the site's, on site). */
function local(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
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

  async function load(openId?: number): Promise<void> {
    try {
      const q = query({
        registration_number: field(filter, "registration_number"),
        zone: field(filter, "zone"),
      });
      const permits = (await api<{ data: Permit[] }>("GET", `/api/v1/permits${q}`)).data;
      replace(
        listBox,
        table([t("plate"), t("zone"), t("start"), t("endShort"), t("active"), t("note")], permits, (p) => [
          h(
            "a",
            {
              href: `#/permits/${p.id}`,
              "data-permit": p.id,
              onclick: prevented(() => {
                history.pushState(null, "", `#/permits/${p.id}`);
                edit(p);
              }),
            },
            p.registration_number,
          ),
          String(p.zone),
          when(p.start_at),
          when(p.end_at),
          p.active ? "✓" : "",
          p.note,
        ]),
      );
      const chosen = permits.find((p) => p.id === openId);
      if (chosen) edit(chosen);
    } catch (e) {
      replace(note, problemText(e));
    }
  }

  function edit(p: Permit | null): void {
    const windows = new RowsEditor(
      "permit-windows",
      t("windows"),
      [
        { name: "weekday", label: t("dayType"), kind: "select", options: list("weekdays") },
        { name: "start_time", label: t("from"), kind: "time" },
        { name: "end_time", label: t("to"), kind: "time" },
      ],
      { weekday: 1, start_time: "07:00:00", end_time: "18:00:00" },
      p?.days ?? [],
    );
    const status = h("p", { class: "note", role: "status", id: "permit-status" });
    const conflict = h("div");
    // The version the form was opened on: writes carry it (If-Match), so none undoes another's.
    let etag: string | null = null;
    if (p)
      void versioned<{ data: Permit }>("GET", `/api/v1/permits/${p.id}`).then(
        (r) => (etag = r.etag),
        () => {},
      );
    /** Someone changed the permit meanwhile: the form stays as it is, and the operator chooses. */
    const stale = async (mine: Record<string, unknown>, retry: () => Promise<void>) => {
      const now = await versioned<{ data: Permit }>("GET", `/api/v1/permits/${p!.id}`);
      conflictNotice(conflict, mine, now.data.data, {
        useTheirs: () => edit(now.data.data),
        keepMine: () => {
          etag = now.etag;
          replace(conflict);
          void retry();
        },
      });
    };
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
            value: local(p?.start_at ?? new Date().toISOString()),
          }),
        ),
        h(
          "label",
          null,
          t("end"),
          h("input", { name: "end_at", type: "datetime-local", value: local(p?.end_at ?? null) }),
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
        start_at: new Date(field(form, "start_at")).toISOString(),
        end_at: end ? new Date(end).toISOString() : null,
        note: field(form, "note"),
        days: windows
          .values()
          .map(({ weekday, start_time, end_time }) => ({ weekday, start_time, end_time })),
      };
      try {
        const saved = p
          ? (await versioned<{ data: Permit }>("PUT", `/api/v1/permits/${p.id}`, body, etag)).data
          : await api<{ data: Permit }>("POST", "/api/v1/permits", body);
        edit(saved.data);
        await load();
      } catch (e) {
        if (isStale(e)) await stale(body, save);
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
        if (isStale(e)) await stale({}, remove);
        else replace(status, problemText(e));
      }
    }
    replace(editor, form);
  }

  replace(root, h("div", { class: "split" }, h("section", null, filter, note, listBox), editor));
  void load(permitId ? Number(permitId) : undefined);
  return () => {};
}
