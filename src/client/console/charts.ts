/**
 * Charts as SVG built here (no library: three shapes are all the console draws, and this stays
 * well under 200 lines): bars against a capacity, columns, and a line with an optional limit.
 * Each chart is an image with a name for screen readers, drawn in the pixels of the width it is
 * given (its container's), so that its text reads the same on a phone as at a desk.
 */
const NS = "http://www.w3.org/2000/svg";

/** Pixels a character takes at the charts' 13 px type, a little over its widest digits and letters. */
const CHAR = 7.8;
const textWidth = (s: string) => Math.ceil(s.length * CHAR);

/** An axis value in as few characters as it needs, in the page's language: 500000 is "500K" ("500 tn"). */
const compact = new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 1 });
const tickText = (v: number) => compact.format(Math.round(v * 10) / 10);

/** Room left of a value axis for its widest label (the top one) and a gap. */
const axisRoom = (top: number) => Math.max(40, textWidth(tickText(top)) + 12);

/** A text cut to `room` pixels with an ellipsis; the whole text stays in its title. */
function fitted(text: string, room: number, attrs: Record<string, string | number>): Element {
  const fits = Math.max(1, Math.floor(room / CHAR));
  if (text.length <= fits) return svg("text", attrs, text);
  return svg("text", attrs, svg("title", {}, text), `${text.slice(0, Math.max(1, fits - 1))}…`);
}

function svg(
  tag: string,
  attrs: Record<string, string | number>,
  ...children: (Element | string)[]
): Element {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

function frame(label: string, width: number, height: number, ...children: Element[]): SVGSVGElement {
  return svg(
    "svg",
    {
      viewBox: `0 0 ${width} ${height}`,
      role: "img",
      "aria-label": label,
      class: "chart",
      preserveAspectRatio: "xMinYMin meet",
    },
    svg("title", {}, label),
    ...children,
  ) as SVGSVGElement;
}

/** A round top for the axis: 1, 2, 5 × 10^n at or above the largest value. */
export function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  return ([1, 2, 5, 10].find((m) => m * p >= v) ?? 10) * p;
}

export interface Bar {
  label: string;
  value: number;
  /** The capacity the bar is drawn against (0: none). */
  of: number;
  text: string;
}

/** One horizontal bar per row, filled to value / of; over capacity turns the bar red. */
export function barsAgainst(label: string, rows: readonly Bar[], W = 600): SVGSVGElement {
  const ROW = 34;
  // The figures' column as wide as the widest figure; the names' as the longest name, within a
  // fifth and two fifths of the chart (a longer name is cut, whole in its title).
  const VALUE = Math.max(48, ...rows.map((r) => textWidth(r.text))) + 10;
  const NAME = Math.round(Math.min(W * 0.4, Math.max(W * 0.2, ...rows.map((r) => textWidth(r.label) + 10))));
  const TRACK = Math.max(10, W - NAME - VALUE - 8);
  const parts: Element[] = [];
  rows.forEach((r, i) => {
    const y = i * ROW;
    const share = r.of > 0 ? Math.min(1, r.value / r.of) : 0;
    const over = r.of > 0 && r.value > r.of;
    parts.push(
      fitted(r.label, NAME - 10, { x: 0, y: y + 21, class: "chart-label" }),
      svg("rect", { x: NAME, y: y + 6, width: TRACK, height: 20, class: "chart-track", rx: 3 }),
      svg("rect", {
        x: NAME,
        y: y + 6,
        width: Math.max(0, TRACK * share),
        height: 20,
        class: over ? "chart-bar over" : "chart-bar",
        rx: 3,
      }),
      svg("text", { x: W - VALUE + 8, y: y + 21, class: "chart-value" }, r.text),
    );
  });
  return frame(label, W, Math.max(ROW, rows.length * ROW), ...parts);
}

/**
 * Vertical columns with a value axis; `every` labels every n-th column under the axis. With
 * `texts`, each column that is not zero carries its value above it (turned upright when the
 * columns are narrow), so a figure is read, not guessed from the axis.
 */
export function columns(
  label: string,
  values: readonly number[],
  labels: readonly string[],
  every = 1,
  W = 600,
  texts?: readonly string[],
): SVGSVGElement {
  const BOTTOM = 24;
  const top = niceMax(Math.max(0, ...values));
  const LEFT = axisRoom(top);
  const slot = (W - LEFT) / Math.max(1, values.length);
  const widest = Math.max(0, ...(texts ?? []).map(textWidth));
  // A figure lies across its column where it fits, else upright above it.
  const upright = texts !== undefined && widest > slot - 4;
  // Room above the tallest column for its figure, however long the figure is.
  const HEAD = texts === undefined ? 0 : upright ? widest + 10 : 18;
  const H = 220 + HEAD;
  const base = H - BOTTOM;
  const parts: Element[] = [axis(top, LEFT, W, base, base - HEAD - 8)];
  values.forEach((v, i) => {
    const h = ((base - HEAD - 8) * v) / top;
    const x = LEFT + i * slot + slot * 0.15;
    const mid = x + slot * 0.35;
    parts.push(svg("rect", { x, y: base - h, width: slot * 0.7, height: h, class: "chart-bar" }));
    if (i % every === 0)
      parts.push(svg("text", { x: mid, y: H - 6, class: "chart-tick mid" }, labels[i] ?? ""));
    if (texts && v > 0) {
      const y = base - h - 4;
      // Upright, the glyphs' feet reach past the baseline: never past the chart's right edge.
      const at = Math.min(mid + 4, W - 5);
      parts.push(
        upright
          ? svg(
              "text",
              { x: at, y, class: "chart-value-up", transform: `rotate(-90 ${at} ${y})` },
              texts[i] ?? "",
            )
          : svg("text", { x: mid, y, class: "chart-tick mid chart-figure" }, texts[i] ?? ""),
      );
    }
  });
  return frame(label, W, H, ...parts);
}

/**
 * A line over time, with a dashed limit (a lot's spaces) when given. With `now` (the index of the
 * step at the present, and its label), the line stops there and a marker says so: what has not
 * happened yet is not drawn as a count of zero.
 */
export function line(
  label: string,
  values: readonly number[],
  labels: readonly string[],
  limit = 0,
  every = 1,
  W = 600,
  now?: { index: number; text: string },
): SVGSVGElement {
  const H = 220;
  const BOTTOM = 24;
  const top = niceMax(Math.max(limit, ...values));
  const LEFT = axisRoom(top);
  const x = (i: number) => LEFT + ((W - LEFT) * i) / Math.max(1, values.length - 1);
  const y = (v: number) => H - BOTTOM - ((H - BOTTOM - 8) * v) / top;
  const parts: Element[] = [axis(top, LEFT, W, H - BOTTOM)];
  if (limit > 0)
    parts.push(svg("line", { x1: LEFT, x2: W, y1: y(limit), y2: y(limit), class: "chart-limit" }));
  const drawn = now ? values.slice(0, now.index + 1) : values;
  parts.push(
    svg("polyline", { points: drawn.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "chart-line" }),
  );
  if (now)
    parts.push(
      svg("line", { x1: x(now.index), x2: x(now.index), y1: 8, y2: H - BOTTOM, class: "chart-now" }),
      // Late in the day the marker is near the right edge: its word goes to its left, not off the chart.
      x(now.index) > W - 48
        ? svg("text", { x: x(now.index) - 4, y: 18, class: "chart-tick end chart-now-label" }, now.text)
        : svg("text", { x: x(now.index) + 4, y: 18, class: "chart-tick chart-now-label" }, now.text),
    );
  labels.forEach((l, i) => {
    if (i % every === 0) parts.push(svg("text", { x: x(i), y: H - 6, class: "chart-tick mid" }, l));
  });
  return frame(label, W, H, ...parts);
}

/** Gridlines at 0, half and the top, with their values; `span` is the top's height above the base. */
function axis(top: number, left: number, width: number, base: number, span = base - 8): Element {
  const g = svg("g", { class: "chart-axis" });
  for (const f of [0, 0.5, 1]) {
    const y = base - span * f;
    g.append(
      svg("line", { x1: left, x2: width, y1: y, y2: y, class: "chart-grid" }),
      svg("text", { x: left - 6, y: y + 4, class: "chart-tick end" }, tickText(top * f)),
    );
  }
  return g;
}
