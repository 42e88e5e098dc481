import { NOTICE_VERDICTS } from "../../domain/notices/rules.ts";
import { api } from "../api.ts";
import type { ConsoleNotice, ConsoleNoticeReason } from "../api-types.ts";
import { field, h, prevented, replace } from "../dom.ts";
import { money, t, when } from "../i18n.ts";
import { span } from "../spans.ts";
import { moneyInput, moneyOf } from "./money.ts";
import { pagedList } from "./paged-list.ts";
import { fillFrom, searchOf, timeAndSearch } from "./search-form.ts";
import { addressed, addressSearch, openingLink, problemText, SCROLLS, table } from "./table.ts";

/**
 * A box per verdict a reason may follow, each named in words (its label says the reason for a
 * screen reader); `chosen` lists the ticked ones in the one order.
 */
function verdictChoice(
  given: readonly (typeof NOTICE_VERDICTS)[number][],
  labelOf: (verdict: (typeof NOTICE_VERDICTS)[number]) => string,
) {
  const boxes = NOTICE_VERDICTS.map((verdict) => ({
    verdict,
    box: h("input", {
      type: "checkbox",
      name: "verdicts",
      value: verdict,
      checked: given.includes(verdict),
      "aria-label": labelOf(verdict),
    }),
  }));
  return {
    element: h(
      "span",
      { class: "verdict-choice" },
      boxes.map(({ verdict, box }) =>
        h("label", { class: "verdict-option" }, box, ` ${t(`verdict_${verdict}`)}`),
      ),
    ),
    chosen: () => boxes.filter(({ box }) => box.checked).map(({ verdict }) => verdict),
  };
}

/**
 * The mark an OVER TIME LIMIT notice follows, and, when the notice was written before the car was
 * over its limit by the mark (a phone's clock, or a verdict misread), a word that says so: the
 * box stores the notice as the attendant sent it, and the operator judges it.
 */
function markText(mark: NonNullable<ConsoleNotice["mark"]>, observedAt: string): string {
  const facts = t("markFacts", {
    time: when(mark.seen_at),
    by: mark.marked_by,
    limit: span(mark.limit_seconds),
  });
  const over = Date.parse(mark.seen_at) + mark.limit_seconds * 1000;
  return Date.parse(observedAt) < over
    ? `${facts}. ${t("markNotOverYet", { time: when(new Date(over).toISOString()) })}`
    : facts;
}

/** The search's fields, as the address holds them (`#/notices?state=issued&reason=no-permit`). */
const FILTERS = ["registration_number", "attendant", "reason", "state", "from", "to"] as const;

function stateBadge(n: ConsoleNotice) {
  return h("span", { class: `state ${n.state}`, "data-state": n.state }, t(`notice_${n.state}`));
}

/**
 * The site's control notices: searched by plate, attendant, reason, state and time, exported as
 * CSV, each opened with its photos (`#/notices/NUMBER`) and voided with a reason; and the site's
 * table of reasons and amounts the handhelds offer.
 */
export function noticesPage(root: HTMLElement, _lost: () => void, number?: string): () => void {
  const rows = h("tbody");
  const more = h("button", { type: "button", id: "notices-more", hidden: true }, t("more"));
  const note = h("p", { class: "note", role: "status" });
  const csv = h(
    "a",
    { class: "button", id: "notices-csv", download: "" },
    t("exportCsv"),
  ) as HTMLAnchorElement;
  const detail = h("div", { class: "editor", id: "notice-detail" });
  const reasonsBox = h("section", { id: "notice-reasons", "aria-labelledby": "reasons-title" });
  const reasonSelect = h("select", { name: "reason", "aria-label": t("noticeReason") });
  const given = addressed();
  const form = h(
    "form",
    { class: "toolbar", id: "notice-search", onsubmit: prevented((): void => void search()) },
    h("input", { name: "registration_number", placeholder: t("plate"), "aria-label": t("plate") }),
    h("input", { name: "attendant", placeholder: t("attendantLabel"), "aria-label": t("attendantLabel") }),
    reasonSelect,
    h(
      "select",
      { name: "state", "aria-label": t("state") },
      h("option", { value: "" }, `${t("state")}: ${t("any")}`),
      ["issued", "voided"].map((s) => h("option", { value: s }, t(`notice_${s}` as "notice_issued"))),
    ),
    timeAndSearch(),
  );

  /** The reasons the search offers: every one the site has had, retired ones too. */
  function offerReasons(reasons: ConsoleNoticeReason[]): void {
    const chosen = reasonSelect.value || given.get("reason") || "";
    replace(
      reasonSelect,
      h("option", { value: "" }, `${t("noticeReason")}: ${t("any")}`),
      reasons.map((r) => h("option", { value: r.code }, `${r.title} (${r.code})`)),
    );
    reasonSelect.value = chosen;
  }

  // The reason's list has no options yet: the address's reason becomes one first.
  fillFrom(
    given,
    form,
    FILTERS.filter((name) => name !== "reason"),
  );
  if (given.get("reason"))
    reasonSelect.appendChild(h("option", { value: given.get("reason")! }, given.get("reason")!));
  reasonSelect.value = given.get("reason") ?? "";

  const filter = () => searchOf(form, FILTERS);

  const notices = pagedList<ConsoleNotice>({
    path: "/api/v1/notices",
    more,
    filter,
    show: (page, next) => {
      if (!next) replace(rows);
      if (!next && page.length === 0) replace(note, t("noNotices"));
      else replace(note, "");
      for (const n of page)
        rows.appendChild(
          h(
            "tr",
            null,
            h(
              "td",
              null,
              openingLink(`#/notices/${n.number}`, String(n.number), () => open(String(n.number))),
            ),
            h("td", { class: "when" }, when(n.issued_at)),
            h("td", { class: "plate" }, n.registration_number),
            h("td", null, String(n.zone)),
            h("td", null, n.reason_title),
            h("td", { class: "amount" }, money(n.amount, n.currency)),
            h("td", null, n.issued_by),
            h("td", null, stateBadge(n)),
          ),
        );
    },
    failed: (e) => replace(note, problemText(e)),
  });

  function search(opening = false): Promise<void> {
    addressSearch({
      form,
      fields: FILTERS,
      page: "#/notices",
      query: filter(),
      csv,
      csvPath: "/api/v1/notices.csv",
      opening,
    });
    return notices.search();
  }

  /** The notice asked for last: an earlier answer arriving late is not shown over it. */
  let asked = 0;
  async function open(num: string): Promise<void> {
    const mine = ++asked;
    try {
      const n = (await api<{ data: ConsoleNotice }>("GET", `/api/v1/notices/${encodeURIComponent(num)}`))
        .data;
      if (mine !== asked) return;
      const facts: [string, string | Node][] = [
        [t("state"), stateBadge(n)],
        [t("noticeReason"), `${n.reason_title} (${n.reason})`],
        // What the handheld's verdict told the attendant before the notice was written.
        [t("verdictSeen"), t(`verdict_${n.verdict}`)],
        // What an OVER TIME LIMIT verdict was measured from.
        ...(n.verdict === "over_time_limit"
          ? [[t("markThatLed"), n.mark ? markText(n.mark, n.observed_at) : t("noMark")] as [string, string]]
          : []),
        [t("amountDue"), money(n.amount, n.currency)],
        [t("zone"), String(n.zone)],
        [
          t("lot"),
          n.parking_lot_id === null
            ? t("none")
            : n.parking_lot_name === null
              ? `#${n.parking_lot_id}`
              : `${n.parking_lot_name} (#${n.parking_lot_id})`,
        ],
        [t("observedAt"), when(n.observed_at)],
        [t("issuedAt"), when(n.issued_at)],
        [t("attendantLabel"), n.issued_by],
        [t("noticeNoteShort"), n.note || t("none")],
      ];
      if (n.state === "voided")
        facts.push(
          [t("voidedAt"), when(n.voided_at)],
          [t("voidedBy"), n.voided_by ?? t("none")],
          [t("voidReason"), n.void_reason ?? t("none")],
        );
      const photos = n.photos.length
        ? h(
            "ul",
            { class: "notice-photos", id: "notice-photos" },
            n.photos.map((p, i) =>
              h(
                "li",
                null,
                h(
                  "a",
                  { href: p.url, target: "_blank", rel: "noopener" },
                  h("img", {
                    src: p.url,
                    alt: t("noticePhotoAlt", { n: i + 1 }),
                    width: p.width,
                    height: p.height,
                    loading: "lazy",
                  }),
                ),
              ),
            ),
          )
        : h("p", null, t("noPhotos"));
      const status = h("p", { role: "status", id: "void-status" });
      const voidForm =
        n.state === "issued"
          ? h(
              "form",
              {
                id: "void-form",
                class: "toolbar",
                onsubmit: prevented(async (): Promise<void> => {
                  const button = voidForm!.querySelector("button")!;
                  button.disabled = true;
                  try {
                    await api("POST", `/api/v1/notices/${n.number}/void`, {
                      reason: field(voidForm!, "reason"),
                    });
                    await open(String(n.number));
                    void search(true);
                  } catch (e) {
                    button.disabled = false;
                    replace(status, problemText(e));
                  }
                }),
              },
              h("input", {
                name: "reason",
                required: true,
                maxlength: 500,
                size: 40,
                placeholder: t("voidReason"),
                "aria-label": t("voidReason"),
              }),
              h("button", { type: "submit" }, t("voidNotice")),
            )
          : null;
      replace(
        detail,
        h("h2", null, t("noticeHeading", { number: n.number, plate: n.registration_number })),
        h(
          "dl",
          { class: "facts", id: "notice-facts" },
          facts.map(([k, x]) => [h("dt", null, k), h("dd", null, x)]),
        ),
        h("h3", null, t("photos")),
        photos,
        voidForm,
        status,
      );
    } catch (e) {
      if (mine === asked) replace(detail, problemText(e));
    }
  }

  /** The reasons table: each reason's title, amount and whether handhelds offer it, editable. */
  async function drawReasons(): Promise<void> {
    const status = h("p", { role: "status", id: "reasons-status" });
    let list: { data: ConsoleNoticeReason[]; currency: string };
    try {
      list = await api("GET", "/api/v1/notice-reasons");
    } catch (e) {
      replace(reasonsBox, h("h2", { id: "reasons-title" }, t("noticeReasons")), problemText(e));
      return;
    }
    offerReasons(list.data);
    const rowOf = (r: ConsoleNoticeReason) => {
      const title = h("input", {
        name: "title",
        value: r.title,
        required: true,
        maxlength: 200,
        "aria-label": t("reasonTitleOf", { code: r.code }),
      });
      const amount = moneyInput("amount", r.amount, t("reasonAmountOf", { code: r.code }));
      const active = h("input", {
        type: "checkbox",
        name: "active",
        checked: r.active,
        "aria-label": t("reasonActiveOf", { code: r.code }),
      });
      const verdicts = verdictChoice(r.verdicts, (verdict) =>
        t("reasonVerdictOf", { code: r.code, verdict: t(`verdict_${verdict}`) }),
      );
      const save = h("button", { type: "button" }, t("save"));
      save.addEventListener("click", async () => {
        if (!title.reportValidity() || !amount.reportValidity()) return;
        if (verdicts.chosen().length === 0) {
          replace(status, t("reasonNeedsVerdict"));
          return;
        }
        save.disabled = true;
        try {
          await api("PATCH", `/api/v1/notice-reasons/${encodeURIComponent(r.code)}`, {
            title: title.value,
            amount: moneyOf(amount),
            active: active.checked,
            verdicts: verdicts.chosen(),
          });
          replace(status, t("reasonSaved", { code: r.code }));
        } catch (e) {
          replace(status, problemText(e));
        } finally {
          save.disabled = false;
        }
      });
      return [r.code, title, amount, verdicts.element, active, save];
    };
    const newVerdicts = verdictChoice([...NOTICE_VERDICTS], (verdict) =>
      t("reasonVerdictNew", { verdict: t(`verdict_${verdict}`) }),
    );
    const adding = h(
      "form",
      {
        id: "reason-add",
        class: "toolbar",
        onsubmit: prevented(async (): Promise<void> => {
          if (newVerdicts.chosen().length === 0) {
            replace(status, t("reasonNeedsVerdict"));
            return;
          }
          try {
            await api("POST", "/api/v1/notice-reasons", {
              code: field(adding, "code"),
              title: field(adding, "title"),
              amount: moneyOf(adding.elements.namedItem("amount") as HTMLInputElement),
              verdicts: newVerdicts.chosen(),
            });
            await drawReasons();
            replace(document.getElementById("reasons-status")!, t("reasonAdded"));
          } catch (e) {
            replace(status, problemText(e));
          }
        }),
      },
      h("input", {
        name: "code",
        required: true,
        // The browser reads a pattern with the v flag, where a literal "-" in a class is escaped.
        pattern: "[a-z0-9][a-z0-9_\\-]*",
        maxlength: 32,
        placeholder: t("reasonCode"),
        "aria-label": t("reasonCode"),
      }),
      h("input", {
        name: "title",
        required: true,
        maxlength: 200,
        placeholder: t("reasonTitle"),
        "aria-label": t("reasonTitle"),
      }),
      moneyInput("amount", 0, t("amountDue")),
      newVerdicts.element,
      h("button", { type: "submit" }, t("addReason")),
    );
    replace(
      reasonsBox,
      h("h2", { id: "reasons-title" }, t("noticeReasons")),
      h("p", null, t("reasonsHelp", { currency: list.currency })),
      table(
        [
          t("reasonCode"),
          t("reasonTitle"),
          `${t("amountDue")} (${list.currency})`,
          t("reasonVerdicts"),
          t("active"),
          "",
        ],
        list.data,
        rowOf,
        { id: "reasons-table" },
      ),
      adding,
      status,
    );
  }

  replace(
    root,
    h(
      "div",
      { class: "notices-page" },
      detail,
      h(
        "section",
        { "aria-labelledby": "notices-title" },
        h("h2", { id: "notices-title" }, t("notices")),
        form,
        h("div", { class: "toolbar" }, csv),
        note,
        h(
          "table",
          { id: "notices-table", ...SCROLLS },
          h(
            "thead",
            null,
            h(
              "tr",
              null,
              [
                t("noticeNo"),
                t("issuedAt"),
                t("plate"),
                t("zone"),
                t("noticeReason"),
                t("amountDue"),
                t("attendantLabel"),
                t("state"),
              ].map((x) => h("th", null, x)),
            ),
          ),
          rows,
        ),
        more,
      ),
      reasonsBox,
    ),
  );
  void drawReasons();
  void search(true);
  if (number) void open(number);
  return () => {};
}
