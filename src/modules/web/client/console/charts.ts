/**
 * Charts as SVG built here (no library: three shapes are all the console draws, and this stays
 * well under 200 lines): bars against a capacity, columns, and a line with an optional limit.
 * Each chart is an image with a name for screen readers, drawn in the pixels of the width it is
 * given (its container's), so that its text reads the same on a phone as at a desk.
 */
const NS = "http://www.w3.org/2000/svg";

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
  const NAME = Math.round(W * 0.3);
  const parts: Element[] = [];
  rows.forEach((r, i) => {
    const y = i * ROW;
    const share = r.of > 0 ? Math.min(1, r.value / r.of) : 0;
    const over = r.of > 0 && r.value > r.of;
    parts.push(
      svg("text", { x: 0, y: y + 21, class: "chart-label" }, r.label),
      svg("rect", { x: NAME, y: y + 6, width: W - NAME - 70, height: 20, class: "chart-track", rx: 3 }),
      svg("rect", {
        x: NAME,
        y: y + 6,
        width: Math.max(0, (W - NAME - 70) * share),
        height: 20,
        class: over ? "chart-bar over" : "chart-bar",
        rx: 3,
      }),
      svg("text", { x: W - 62, y: y + 21, class: "chart-value" }, r.text),
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
  const LEFT = 48;
  const BOTTOM = 24;
  const slot = (W - LEFT) / Math.max(1, values.length);
  const upright = texts !== undefined && slot < 44;
  // Room above the tallest column for its figure.
  const HEAD = texts === undefined ? 0 : upright ? 52 : 18;
  const H = 220 + HEAD;
  const top = niceMax(Math.max(0, ...values));
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
      parts.push(
        upright
          ? svg(
              "text",
              { x: mid + 4, y, class: "chart-value-up", transform: `rotate(-90 ${mid + 4} ${y})` },
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
  const LEFT = 48;
  const BOTTOM = 24;
  const top = niceMax(Math.max(limit, ...values));
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
      svg("text", { x: x(now.index) + 4, y: 18, class: "chart-tick chart-now-label" }, now.text),
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
      svg("text", { x: left - 6, y: y + 4, class: "chart-tick end" }, String(Math.round(top * f * 10) / 10)),
    );
  }
  return g;
}
