/**
 * Whether a photo's bytes are the whole image they claim to be, beyond its header: what the box
 * proves of a PNG or a JPEG before it stores it (docs/notices.md, "What the box accepts as a
 * photo"). Pure: inflating a PNG's pixel data is given to it (`Inflate`), so that this file
 * needs no runtime module.
 *
 * - PNG: the signature, then chunks each whole and with its CRC; IHDR first with a size, bit depth
 *   and colour type a decoder accepts; PLTE where the colour type needs one; the IDAT chunks
 *   together; IEND last and nothing after it; no critical chunk a decoder does not know; and the
 *   pixel data inflated to exactly the bytes that size needs, each row with a known filter, and
 *   nothing after the end of the compressed data.
 * - JPEG: SOI, then every segment whole; one frame header (SOF) of a kind browsers decode, with a
 *   size and 1-4 components;
 *   each scan (SOS) after it, naming the frame's components and tables that were defined; the
 *   compressed data of each scan framed (only stuffed 0xFF and restart markers inside) up to EOI,
 *   and nothing after EOI. The compressed data itself is not decoded.
 */

/**
 * Inflates zlib data as a stream, each piece of output to `onPiece`, none of it kept: the bytes
 * made and the input the zlib stream took, or null when it is corrupt, unfinished or past
 * `maxBytes` of output (src/platform/inflate.ts). A photo's pixels may need up to 1600 × 1600 × 8
 * bytes and a filter byte a row (20 MB), which no one holds.
 */
export type Inflate = (
  data: Uint8Array,
  maxBytes: number,
  onPiece: (piece: Uint8Array) => void,
) => Promise<{ made: number; taken: number } | null>;

/** Why the bytes are not the whole image of that type; null when they are. */
export async function imageStructureProblem(
  bytes: Uint8Array,
  type: "image/png" | "image/jpeg",
  inflate: Inflate,
): Promise<string | null> {
  return type === "image/png" ? pngProblem(bytes, inflate) : jpegProblem(bytes);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(b: Uint8Array, from: number, to: number): number {
  let c = 0xffffffff;
  for (let i = from; i < to; i++) c = CRC_TABLE[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Bit depths each PNG colour type allows, and its samples per pixel. */
const PNG_COLOUR_TYPES: Record<number, { depths: number[]; samples: number }> = {
  0: { depths: [1, 2, 4, 8, 16], samples: 1 },
  2: { depths: [8, 16], samples: 3 },
  3: { depths: [1, 2, 4, 8], samples: 1 },
  4: { depths: [8, 16], samples: 2 },
  6: { depths: [8, 16], samples: 4 },
};

/** Adam7: each pass's first column and row, and its steps. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

async function pngProblem(b: Uint8Array, inflate: Inflate): Promise<string | null> {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let i = 8;
  let ihdr: { width: number; height: number; depth: number; colour: number; interlace: number } | null = null;
  let palette = false;
  const idat: Uint8Array[] = [];
  let idatEnded = false;
  for (;;) {
    if (i + 12 > b.length) return "The PNG ends before its IEND chunk";
    const length = dv.getUint32(i);
    if (length > b.length - i - 12) return "A PNG chunk runs past the end of the file";
    const type = String.fromCharCode(b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!);
    if (!/^[A-Za-z]{4}$/.test(type)) return "A PNG chunk has no valid type";
    const data = b.subarray(i + 8, i + 8 + length);
    if (crc32(b, i + 4, i + 8 + length) !== dv.getUint32(i + 8 + length))
      return `The PNG's ${type} chunk fails its CRC check`;
    i += 12 + length;
    if (ihdr === null && type !== "IHDR") return "The PNG does not start with its IHDR chunk";
    if (type !== "IDAT" && idat.length > 0) idatEnded = true;
    if (type === "IHDR") {
      if (ihdr !== null) return "The PNG has a second IHDR chunk";
      if (length !== 13) return "The PNG's IHDR chunk is not 13 bytes";
      const header = {
        width: dv.getUint32(16),
        height: dv.getUint32(20),
        depth: data[8]!,
        colour: data[9]!,
        interlace: data[12]!,
      };
      const allowed = PNG_COLOUR_TYPES[header.colour];
      if (!allowed?.depths.includes(header.depth))
        return "The PNG's bit depth and colour type do not go together";
      if (data[10] !== 0 || data[11] !== 0 || header.interlace > 1)
        return "The PNG names a compression, filter or interlace method that does not exist";
      ihdr = header;
    } else if (type === "PLTE") {
      if (idat.length > 0) return "The PNG's palette comes after its image data";
      if (length === 0 || length % 3 !== 0 || length > 768) return "The PNG's palette is not whole";
      palette = true;
    } else if (type === "IDAT") {
      if (idatEnded) return "The PNG's image data is not in consecutive IDAT chunks";
      idat.push(data);
    } else if (type === "IEND") {
      if (length !== 0) return "The PNG's IEND chunk is not empty";
      if (i !== b.length) return `The PNG has ${b.length - i} bytes after its IEND chunk`;
      break;
    } else if (type.charCodeAt(0) < 0x61) return `The PNG has a critical chunk no decoder knows (${type})`;
  }
  const header = ihdr!;
  if (header.colour === 3 && !palette) return "The PNG is paletted but has no palette";
  if (idat.length === 0) return "The PNG has no image data";
  const bitsPerPixel = header.depth * PNG_COLOUR_TYPES[header.colour]!.samples;
  const rows: { count: number; bytes: number }[] = [];
  if (header.interlace === 0)
    rows.push({ count: header.height, bytes: Math.ceil((header.width * bitsPerPixel) / 8) });
  else
    for (const [x0, y0, dx, dy] of ADAM7) {
      const w = Math.ceil(Math.max(0, header.width - x0) / dx);
      const h = Math.ceil(Math.max(0, header.height - y0) / dy);
      if (w > 0 && h > 0) rows.push({ count: h, bytes: Math.ceil((w * bitsPerPixel) / 8) });
    }
  const expected = rows.reduce((sum, r) => sum + r.count * (1 + r.bytes), 0);
  let joined: Uint8Array;
  if (idat.length === 1) joined = idat[0]!;
  else {
    joined = new Uint8Array(idat.reduce((sum, d) => sum + d.length, 0));
    let at = 0;
    for (const d of idat) {
      joined.set(d, at);
      at += d.length;
    }
  }
  // Each row's first byte is its filter (0-4): checked as the pixels stream by, none kept.
  let at = 0;
  let rowStart = 0;
  let row = 0;
  let pass = 0;
  let badFilter = false;
  const inflated = await inflate(joined, expected, (piece) => {
    for (let i = 0; i < piece.length && !badFilter; ) {
      if (at === rowStart) {
        if (piece[i]! > 4) badFilter = true;
        while (pass < rows.length && row >= rows[pass]!.count) {
          pass++;
          row = 0;
        }
        rowStart += 1 + (rows[pass]?.bytes ?? 0);
        row++;
      }
      const step = Math.min(piece.length - i, rowStart - at);
      at += step;
      i += step;
    }
  });
  if (badFilter) return "A row of the PNG's image data names a filter that does not exist";
  if (inflated === null || inflated.made !== expected)
    return `The PNG's image data does not inflate to the ${expected} bytes its size needs`;
  if (inflated.taken !== joined.length) return "The PNG's image data has bytes after its end";
  return null;
}

/** Start-of-frame markers: SOF0-SOF15 but DHT (C4), JPG (C8) and DAC (CC). */
const isFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;
/**
 * The frames a browser decodes: baseline, extended and progressive, with Huffman or arithmetic
 * coding. Lossless and hierarchical ones (SOF3, SOF5-7, SOF11, SOF13-15) show as broken images.
 */
const DECODED_FRAMES = new Set([0xc0, 0xc1, 0xc2, 0xc9, 0xca]);
/** Frames coded with Huffman tables (the rest use arithmetic coding). */
const isHuffmanFrame = (m: number) => m <= 0xc7;

function jpegProblem(b: Uint8Array): string | null {
  let i = 2;
  let frame: { marker: number; components: Map<number, number> } | null = null;
  const quantTables = new Set<number>();
  const dcTables = new Set<number>();
  const acTables = new Set<number>();
  let scans = 0;
  for (;;) {
    if (i >= b.length) return "The JPEG ends before its EOI marker";
    if (b[i] !== 0xff) return "The JPEG has bytes between its segments";
    while (b[i] === 0xff) i++; // fill bytes before a marker
    if (i >= b.length) return "The JPEG ends before its EOI marker";
    const marker = b[i++]!;
    if (marker === 0xd9) {
      if (scans === 0) return "The JPEG has no image data (no scan)";
      if (i !== b.length) return `The JPEG has ${b.length - i} bytes after its EOI marker`;
      return null;
    }
    if (marker === 0x00 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01)
      return `The JPEG has a marker out of place (FF${hex(marker)})`;
    if (i + 2 > b.length) return "The JPEG ends inside a segment";
    const length = (b[i]! << 8) | b[i + 1]!;
    if (length < 2 || i + length > b.length) return "A JPEG segment runs past the end of the file";
    const seg = b.subarray(i + 2, i + length);
    i += length;
    if (isFrame(marker)) {
      if (frame) return "The JPEG has a second frame header";
      if (!DECODED_FRAMES.has(marker))
        return `The JPEG is coded in a way browsers do not show (lossless or hierarchical, FF${hex(marker)})`;
      const count = seg[5] ?? 0;
      if (seg.length < 6 || seg.length !== 6 + 3 * count) return "The JPEG's frame header is not whole";
      if (count < 1 || count > 4) return "The JPEG's frame has no or too many components";
      if (((seg[1]! << 8) | seg[2]!) === 0 || ((seg[3]! << 8) | seg[4]!) === 0)
        return "The JPEG's frame has no size";
      const components = new Map<number, number>();
      for (let c = 0; c < count; c++) {
        const id = seg[6 + 3 * c]!;
        const sampling = seg[7 + 3 * c]!;
        const table = seg[8 + 3 * c]!;
        if (components.has(id)) return "The JPEG's frame names a component twice";
        const h = sampling >> 4;
        const v = sampling & 15;
        if (h < 1 || h > 4 || v < 1 || v > 4 || table > 3)
          return "The JPEG's frame has a component it cannot sample";
        components.set(id, table);
      }
      frame = { marker, components };
    } else if (marker === 0xdb) {
      // Each table: Pq/Tq, then 64 values of 1 or 2 bytes.
      let at = 0;
      while (at < seg.length) {
        const precision = seg[at]! >> 4;
        const id = seg[at]! & 15;
        const size = precision === 0 ? 64 : 128;
        if (precision > 1 || id > 3 || at + 1 + size > seg.length)
          return "The JPEG's quantization table is not whole";
        quantTables.add(id);
        at += 1 + size;
      }
    } else if (marker === 0xc4) {
      // Each table: Tc/Th, 16 counts, then that many symbols.
      let at = 0;
      while (at < seg.length) {
        if (at + 17 > seg.length) return "The JPEG's Huffman table is not whole";
        const klass = seg[at]! >> 4;
        const id = seg[at]! & 15;
        let symbols = 0;
        for (let k = 1; k <= 16; k++) symbols += seg[at + k]!;
        if (klass > 1 || id > 3 || symbols === 0 || at + 17 + symbols > seg.length)
          return "The JPEG's Huffman table is not whole";
        (klass === 0 ? dcTables : acTables).add(id);
        at += 17 + symbols;
      }
    } else if (marker === 0xda) {
      if (!frame) return "The JPEG's image data comes before its frame header";
      const count = seg[0] ?? 0;
      if (count < 1 || count > 4 || seg.length !== 4 + 2 * count)
        return "The JPEG's scan header is not whole";
      for (let c = 0; c < count; c++) {
        const id = seg[1 + 2 * c]!;
        const tables = seg[2 + 2 * c]!;
        const quant = frame.components.get(id);
        if (quant === undefined) return "The JPEG's scan names a component its frame does not have";
        if (!quantTables.has(quant)) return "The JPEG uses a quantization table it does not define";
        if (isHuffmanFrame(frame.marker)) {
          // A progressive frame's scans are DC (first pass, or a refinement that needs no table)
          // or AC, each needing its one class of table.
          const progressive = frame.marker === 0xc2 || frame.marker === 0xc6;
          const spectralStart = seg[1 + 2 * count]!;
          const refining = seg[3 + 2 * count]! >> 4 > 0;
          const needsDc = !progressive || (spectralStart === 0 && !refining);
          const needsAc = !progressive || spectralStart > 0;
          if ((needsDc && !dcTables.has(tables >> 4)) || (needsAc && !acTables.has(tables & 15)))
            return "The JPEG uses a Huffman table it does not define";
        }
      }
      scans++;
      // The compressed data: any byte, 0xFF only as FF00 (a stuffed byte) or FFD0-FFD7 (restart).
      const start = i;
      for (;;) {
        if (i + 1 >= b.length) return "The JPEG ends inside its image data";
        if (b[i] === 0xff) {
          const next = b[i + 1]!;
          if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) i += 2;
          else if (next === 0xff) i++;
          else break;
        } else i++;
      }
      if (i === start) return "The JPEG has a scan with no image data";
    } else if (
      !(marker >= 0xe0 && marker <= 0xef) && // APPn
      marker !== 0xfe && // COM
      marker !== 0xdd && // DRI
      marker !== 0xcc && // DAC
      marker !== 0xdc // DNL
    )
      return `The JPEG has a segment no decoder knows (FF${hex(marker)})`;
  }
}

const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, "0");
