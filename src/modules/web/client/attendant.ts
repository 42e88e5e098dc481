import { ApiError, api, Offline, query } from "./api.ts";
import type { Found, Verdict } from "./api-types.ts";
import { h, prevented, replace } from "./dom.ts";
import { age, t, when } from "./i18n.ts";
import { offlineUse } from "./offline-use.ts";
import { checkTicketsView, LOOKS, verdictView } from "./verdict-view.ts";
import { savedZone, saveZone } from "./zone-cache.ts";

const ZONE_KEY = "parkd.zone";

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

/**
 * The attendant's page: check a plate where the attendant stands, watch that zone. Made for one
 * thumb and sunlight. `sessionLost` leads back to sign-in when the box answers 401.
 */
export function attendantPage(root: HTMLElement, sessionLost: () => void): () => void {
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
      // In a zone, the verdict for where the attendant stands; without one, check-tickets.
      if (zone === undefined)
        showResult(
          p,
          await api<Found[]>("GET", `/api/v1/attendants/check-tickets${query({ registration_number: p })}`),
        );
      else
        showVerdict(
          await api<Verdict>("GET", `/api/v1/attendants/verdict${query({ registration_number: p, zone })}`),
        );
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return; // the app signs in again (api.ts)
      if (e instanceof Offline && zone !== undefined) await showOffline(p, zone);
      else {
        result.className = "result warn";
        replace(
          result,
          h("p", { class: "verdict" }, e instanceof Offline ? t("offlineCheck") : (e as Error).message),
        );
      }
    }
    // The next car's plate replaces this one as it is typed.
    plate.select();
  }

  function showVerdict(v: Verdict): void {
    result.className = `result ${LOOKS[v.state].tone}`;
    replace(result, ...verdictView(v, Date.now()));
  }

  /** Offline in a zone: the answer the saved list gives, marked as such, with the list's age. */
  async function showOffline(p: string, z: number): Promise<void> {
    const saved = await savedZone(z).catch(() => null);
    if (!saved) {
      result.className = "result warn";
      replace(result, h("p", { class: "verdict" }, t("offlineCheck")));
      return;
    }
    const wanted = p.replace(/[\s-]/g, "").toUpperCase();
    const hit = saved.plates.find((x) => x.replace(/[\s-]/g, "").toUpperCase() === wanted);
    const vars = { plate: hit ?? p.toUpperCase(), zone: z, age: age(Date.now() - saved.at) };
    result.className = "result warn offline-answer";
    replace(
      result,
      h(
        "p",
        { class: "verdict", "data-verdict": hit ? "saved_list" : "not_in_saved_list" },
        t(hit ? "inSavedList" : "notInSavedList", vars),
      ),
    );
  }

  function showResult(p: string, found: Found[]): void {
    result.className = `result ${found.some((f) => f.active) ? "ok" : "bad"}`;
    replace(result, ...checkTicketsView(p, found));
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
  const zoneState = h("p", { class: "zone-state", id: "zone-state", role: "status", "aria-live": "polite" });
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
    // The box ended the feed because the credential ended (revoked, deleted, expired).
    es.addEventListener("ended", () => {
      es.close();
      sessionLost();
    });
    es.addEventListener("error", () => {
      if (source !== es) return;
      void showSaved(z);
      // Closed for good (the box answered, but not with a feed: a 401 after a restart or a
      // revocation), as opposed to a lost connection the browser retries: ask the box why.
      if (es.readyState === EventSource.CLOSED)
        void api("GET", "/api/v1/session").catch((e) => {
          if (e instanceof ApiError && e.status === 401) sessionLost();
        });
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
  // Said plainly, once, where the attendant looks: without it a lost Wi-Fi empties the page.
  void offlineUse.then((ok) => {
    if (!ok)
      root.prepend(
        h(
          "p",
          { class: "warning", id: "no-offline", role: "status" },
          t("noOfflineUse"),
          " ",
          h("a", { href: "#/setup" }, t("setupLink")),
        ),
      );
  });

  return () => {
    clearInterval(ageTimer);
    source?.close();
    window.removeEventListener("offline", onOffline);
    window.removeEventListener("online", onOnline);
  };
}
