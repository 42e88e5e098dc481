import { encode } from "uqr";
import { svg } from "./dom.ts";

/** A QR code as SVG elements (no inline markup, no data URL): dark modules as one path. */
export function qrCode(text: string, size = 240): SVGElement {
  const { data } = encode(text, { ecc: "M", border: 2 });
  const n = data.length;
  let d = "";
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) if (data[y]![x]) d += `M${x} ${y}h1v1h-1z`;
  return svg(
    "svg",
    {
      viewBox: `0 0 ${n} ${n}`,
      width: size,
      height: size,
      role: "img",
      "aria-label": "QR",
      class: "qr",
      "shape-rendering": "crispEdges",
    },
    svg("rect", { width: n, height: n, fill: "#fff" }),
    svg("path", { d, fill: "#000" }),
  );
}
