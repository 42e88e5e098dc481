/**
 * The kiosk board at /board?lots=1,2: free spaces and the price of the next hour per lot, in
 * type big enough to read across a lobby, kept live by /api/v1/board/events. When the box cannot
 * be reached the last figures stay on screen with their age (also across a reload: they are kept
 * in localStorage), and the stream reconnects by itself. Nothing on it names a plate.
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
      noCount: "",
      stale: "Ingen kontakt med boxen. Siffror från",
      ago: "sedan",
      min: "min",
      title: "Parkering",
    }
  : {
      free: "free",
      full: "Full",
      perHour: "per hour",
      noCount: "",
      stale: "The box cannot be reached. Figures from",
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

function render(): void {
  if (!last) return;
  const b = last;
  const age = Math.max(0, Math.round((Date.now() - Date.parse(b.at)) / 60_000));
  replace(
    root,
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
          h("span", { class: "board-price" }, `${money(l.price_per_hour, b.currency)} ${T.perHour}`),
        ),
      ),
    ),
    connected
      ? null
      : h(
          "p",
          { class: "board-stale", role: "status" },
          `${T.stale} ${new Date(b.at).toLocaleTimeString(sv ? "sv-SE" : "en-GB", { hour: "2-digit", minute: "2-digit" })} (${age} ${T.min} ${T.ago}).`,
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

/** The box sends `tick` every 15 s: hearing nothing for 40 s means it is gone (or the way to it). */
const SILENCE_MS = 40_000;
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
setInterval(() => {
  if (connected && Date.now() - heard > SILENCE_MS) {
    connected = false;
    connect();
  }
  // The age on a stale board moves on by itself.
  if (!connected) render();
}, 10_000);
