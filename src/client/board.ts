/**
 * The kiosk board at /board?lots=1,2: free spaces and the price of the next hour per lot, in
 * type big enough to read across a lobby, kept live by /api/v1/board/events. When the box cannot
 * be reached the whole screen says so: the last figures stay, greyed, under "not updated since
 * 10:42" (also across a reload: the figures are kept in localStorage and the page itself by the
 * service worker), and the stream reconnects by itself. Nothing on it names a plate.
 */
import type { Board } from "./api-types.ts";
import { h, replace } from "./dom.ts";

const sv = (new URLSearchParams(location.search).get("lang") ?? navigator.language)
  .toLowerCase()
  .startsWith("sv");
const T = sv
  ? {
      free: "lediga",
      full: "Fullt",
      perHour: "per timme",
      noCharge: "Gratis",
      noCount: "",
      stale: "Inte uppdaterad sedan",
      unreachable: "Ingen kontakt med boxen",
      ago: "sedan",
      min: "min",
      title: "Parkering",
    }
  : {
      free: "free",
      full: "Full",
      perHour: "per hour",
      noCharge: "Free",
      noCount: "",
      stale: "Not updated since",
      unreachable: "The box cannot be reached",
      ago: "ago",
      min: "min",
      title: "Parking",
    };
document.documentElement.lang = sv ? "sv" : "en";

const lots = new URLSearchParams(location.search).get("lots") ?? "";
const query = lots ? `?lots=${encodeURIComponent(lots)}` : "";
const KEY = `parkd-board:${lots}`;
const root = document.getElementById("board")!;

const money = (cents: number, currency: string) =>
  new Intl.NumberFormat(sv ? "sv-SE" : "en-GB", {
    style: "currency",
    currency,
    maximumFractionDigits: cents % 100 === 0 ? 0 : 2,
    minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
  }).format(cents / 100);

let last: Board | null = null;
let connected = false;

const hhmm = (iso: string) =>
  new Date(iso).toLocaleTimeString(sv ? "sv-SE" : "en-GB", { hour: "2-digit", minute: "2-digit" });

function render(): void {
  if (!last) return;
  const b = last;
  const age = Math.max(0, Math.round((Date.now() - Date.parse(b.at)) / 60_000));
  // Old figures are never shown as current ones: the whole screen says how old they are.
  document.body.classList.toggle("stale", !connected);
  replace(
    root,
    connected
      ? null
      : h(
          "p",
          { class: "board-stale", role: "status" },
          h("strong", null, `${T.stale} ${hhmm(b.at)}`),
          ` (${age} ${T.min} ${T.ago}). ${T.unreachable}.`,
        ),
    h("h1", { class: "board-title" }, T.title),
    h(
      "ul",
      { class: "board-lots" },
      b.lots.map((l) =>
        h(
          "li",
          { class: l.full ? "board-lot full" : "board-lot" },
          h("span", { class: "board-name" }, l.name),
          h(
            "span",
            { class: "board-free" },
            l.full ? T.full : l.free === null ? "" : [h("strong", null, String(l.free)), ` ${T.free}`],
          ),
          h(
            "span",
            { class: "board-price" },
            l.price_per_hour === 0 ? T.noCharge : `${money(l.price_per_hour, b.currency)} ${T.perHour}`,
          ),
        ),
      ),
    ),
  );
}

function take(b: Board): void {
  last = b;
  connected = true;
  try {
    localStorage.setItem(KEY, JSON.stringify(b));
  } catch {}
  render();
}

/**
 * A saved copy as this version writes it, or null: one saved by an earlier version names its
 * fields otherwise (pricePerHour), and storage can hold anything.
 */
function savedBoard(text: string | null): Board | null {
  const b = text === null ? null : (JSON.parse(text) as Partial<Board> | null);
  const isLot = (l: unknown): l is Board["lots"][number] => {
    const x = l as Record<string, unknown> | null;
    return (
      typeof x?.id === "number" &&
      typeof x.name === "string" &&
      (x.free === null || typeof x.free === "number") &&
      typeof x.full === "boolean" &&
      typeof x.price_per_hour === "number"
    );
  };
  return typeof b?.at === "string" &&
    !Number.isNaN(Date.parse(b.at)) &&
    typeof b.currency === "string" &&
    Array.isArray(b.lots) &&
    b.lots.length > 0 &&
    b.lots.every(isLot)
    ? (b as Board)
    : null;
}

try {
  last = savedBoard(localStorage.getItem(KEY));
  render();
} catch {
  // Whatever the copy held, the board goes live: drawn from the box's first answer.
  last = null;
  render();
}

/**
 * The box sends `tick` every 5 s: hearing nothing for 12 s means it is gone or frozen (the socket
 * can stay open to a box that no longer answers), so a board notices within 13 s at most.
 */
const SILENCE_MS = 12_000;
let events: EventSource | null = null;
let heard = Date.now();

function connect(): void {
  events?.close();
  heard = Date.now();
  events = new EventSource(`/api/v1/board/events${query}`);
  events.addEventListener("board", (e) => {
    heard = Date.now();
    take(JSON.parse((e as MessageEvent).data) as Board);
  });
  events.addEventListener("tick", () => {
    heard = Date.now();
  });
  events.addEventListener("error", () => {
    connected = false;
    render();
  });
}

connect();
let minute = -1;
setInterval(() => {
  if (connected && Date.now() - heard > SILENCE_MS) {
    connected = false;
    render();
    connect();
  }
  // The age on a stale board moves on by itself.
  const now = Math.floor(Date.now() / 60_000);
  if (!connected && now !== minute) render();
  minute = now;
}, 1_000);

// Kept by the service worker, the board comes back on a reload while the box is away.
if ("serviceWorker" in navigator && window.isSecureContext)
  navigator.serviceWorker.register("/sw.js").catch(() => {});
