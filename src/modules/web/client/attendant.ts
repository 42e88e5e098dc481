import { api, Offline, query } from "./api.ts";
import { h, prevented, replace } from "./dom.ts";
import { age, t, when } from "./i18n.ts";
import { savedZone, saveZone } from "./zone-cache.ts";

interface Found {
  registration_number: string;
  zone: number;
  active: boolean;
  start_at: string;
  end_at: string | null;
  note: string;
}

const ZONE_KEY = "parkd.zone";

/** The interface's timestamps ("…000000Z" with microseconds) as something Date reads. */
function instant(s: string | null): string | null {
  return s === null ? null : s.replace(/(\.\d{3})\d+Z$/, "$1Z");
}

/** The attendant's page: check a plate, watch a zone. Made for one thumb and sunlight. */
/** A change of the zone list, as the live feed sends it with ?changes=1. */
interface ZoneChange {
  from: string;
  added: string[];
  removed: string[];
}

/** The list with `change` applied, in the plate order the server lists them in (Å, Ä, Ö after Z). */
export function applyChange(list: readonly string[], change: ZoneChange): string[] {
  const gone = new Set(change.removed);
  const kept = list.filter((p) => !gone.has(p));
  const have = new Set(kept);
  return kept.concat(change.added.filter((p) => !have.has(p))).sort((a, b) => a.localeCompare(b, "sv"));
}

export function attendantPage(root: HTMLElement): () => void {
  const result = h("section", { class: "result", id: "result", "aria-live": "assertive" });
  const plate = h("input", {
    id: "plate",
    name: "plate",
    class: "plate-input",
    autocomplete: "off",
    autocapitalize: "characters",
    spellcheck: "false",
    enterkeyhint: "search",
    placeholder: t("platePlaceholder"),
    "aria-label": t("plate"),
    required: true,
    maxlength: 32,
  });
  const checkForm = h(
    "form",
    {
      class: "check",
      id: "check-form",
      onsubmit: prevented(() => check(plate.value)),
    },
    plate,
    h("button", { type: "submit", class: "big" }, t("check")),
  );

  async function check(text: string): Promise<void> {
    const p = text.trim();
    if (!p) return;
    replace(result, h("p", { class: "pending" }, "…"));
    try {
      const found = await api<Found[]>(
        "GET",
        `/api/v1/attendants/check-tickets${query({ registration_number: p })}`,
      );
      showResult(p, found);
    } catch (e) {
      result.className = "result warn";
      replace(
        result,
        h("p", { class: "verdict" }, e instanceof Offline ? t("offlineCheck") : (e as Error).message),
      );
    }
  }

  function showResult(p: string, found: Found[]): void {
    const active = found.filter((f) => f.active);
    const recent = found.filter((f) => !f.active);
    result.className = `result ${active.length ? "ok" : "bad"}`;
    replace(
      result,
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
    );
  }

  // The zone list, live.
  const zoneInput = h("input", {
    id: "zone",
    name: "zone",
    inputmode: "numeric",
    pattern: "[0-9]*",
    class: "zone-input",
    "aria-label": t("pickZone"),
    value: localStorage.getItem(ZONE_KEY) ?? "",
  });
  const zoneState = h("p", { class: "zone-state", id: "zone-state" });
  const filter = h("input", {
    id: "zone-filter",
    type: "search",
    placeholder: t("filter"),
    "aria-label": t("filter"),
  });
  const plates = h("ul", { class: "plates", id: "plates" });
  let current: string[] = [];
  let source: EventSource | undefined;
  let zone: number | undefined;
  let lastLive = 0;

  const renderPlates = () => {
    const f = filter.value.replace(/[\s-]/g, "").toUpperCase();
    replace(
      plates,
      current
        .filter((p) => !f || p.replace(/[\s-]/g, "").toUpperCase().includes(f))
        .map((p) =>
          h(
            "li",
            null,
            h(
              "button",
              {
                type: "button",
                onclick: () => {
                  plate.value = p;
                  window.scrollTo(0, 0);
                  void check(p);
                },
              },
              p,
            ),
          ),
        ),
    );
  };

  // While offline, the saved list's age is told again every 15 s.
  const ageTimer = setInterval(() => {
    if (zone !== undefined && zoneState.className.includes("offline")) void showSaved(zone);
  }, 15_000);

  async function showSaved(z: number): Promise<void> {
    const saved = await savedZone(z).catch(() => null);
    if (zone !== z) return;
    zoneState.className = "zone-state offline";
    if (!saved) {
      current = [];
      replace(zoneState, `${t("offline")} · ${t("noSavedList")}`);
    } else {
      current = saved.plates;
      replace(
        zoneState,
        `${t("offline")} · ${t("savedAt", { time: when(saved.at), age: age(Date.now() - saved.at) })}`,
      );
    }
    renderPlates();
  }

  function watch(z: number): void {
    source?.close();
    zone = z;
    localStorage.setItem(ZONE_KEY, String(z));
    zoneState.className = "zone-state";
    replace(zoneState, t("reconnecting"));
    if (!navigator.onLine) void showSaved(z);
    // After the first list, only what changed comes (?changes=1); the id of the list held so far
    // tells whether a change follows on from it.
    const es = new EventSource(`/api/v1/tickets/zone/${z}/events?changes=1`);
    source = es;
    let listId = "";
    const live = (ev: Event) => {
      listId = (ev as MessageEvent<string>).lastEventId;
      lastLive = Date.now();
      zoneState.className = "zone-state live";
      replace(zoneState, `● ${t("live")} · ${t("activeInZone", { n: current.length, zone: z })}`);
      renderPlates();
      void saveZone(z, current).catch(() => {});
    };
    es.addEventListener("plates", (ev) => {
      current = (JSON.parse((ev as MessageEvent<string>).data) as { data: string[] }).data;
      live(ev);
    });
    es.addEventListener("changes", (ev) => {
      const change = JSON.parse((ev as MessageEvent<string>).data) as ZoneChange;
      // A change that does not follow on from the list held: start again from the server's list.
      if (change.from !== listId) return watch(z);
      current = applyChange(current, change);
      live(ev);
    });
    es.addEventListener("open", () => {
      if (lastLive && current.length >= 0) {
        zoneState.className = "zone-state live";
        replace(zoneState, `● ${t("live")} · ${t("activeInZone", { n: current.length, zone: z })}`);
      }
    });
    es.addEventListener("error", () => {
      if (source === es) void showSaved(z);
    });
  }

  const zoneForm = h(
    "form",
    {
      class: "zone-pick",
      id: "zone-form",
      onsubmit: (e: Event) => {
        e.preventDefault();
        const z = Number(zoneInput.value);
        if (zoneInput.value.trim() !== "" && Number.isInteger(z) && z >= 0) watch(z);
      },
    },
    h("label", { for: "zone" }, t("pickZone")),
    zoneInput,
    h("button", { type: "submit" }, t("show")),
  );
  filter.addEventListener("input", renderPlates);

  const onOffline = () => zone !== undefined && void showSaved(zone);
  const onOnline = () => zone !== undefined && watch(zone);
  window.addEventListener("offline", onOffline);
  window.addEventListener("online", onOnline);

  replace(
    root,
    h(
      "div",
      { class: "attendant" },
      checkForm,
      result,
      h("section", { class: "zone" }, zoneForm, zoneState, filter, plates),
    ),
  );
  plate.focus();
  if (zoneInput.value) watch(Number(zoneInput.value));

  return () => {
    clearInterval(ageTimer);
    source?.close();
    window.removeEventListener("offline", onOffline);
    window.removeEventListener("online", onOnline);
  };
}
