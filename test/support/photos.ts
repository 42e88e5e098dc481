import { deflateSync } from "node:zlib";

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A real PNG (RGB, filter 0) of the given size, its pixels from `seed`: photos that differ by seed. */
export function pngPhoto(width: number, height: number, seed = 1): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < raw.length; i++) {
    if (i % (width * 3 + 1) === 0) continue;
    s = (s * 1_103_515_245 + 12_345) >>> 0;
    raw[i] = s >>> 24;
  }
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    sig,
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", new Uint8Array()),
  ]);
}

/**
 * A real baseline JPEG of the given size, `bytes` long in all (a comment segment, or fill bytes
 * before a marker, make up the length): one grey component whose every block is its DC level with
 * no AC terms, coded with one-code Huffman tables. Decodable: the box proves a photo whole.
 */
export function jpegHead(width: number, height: number, bytes = 2_000): Uint8Array {
  const app0 = [
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x00,
  ];
  const dqt = [0xff, 0xdb, 0x00, 0x43, 0x00, ...Array(64).fill(1)];
  const sof0 = [
    0xff,
    0xc0,
    0x00,
    0x0b,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    0x01,
    0x01,
    0x11,
    0x00,
  ];
  // DC table 0 and AC table 0, each one code of one bit: DC category 0, AC end of block.
  const oneCode = (tc: number) => [tc << 4, 1, ...Array(15).fill(0), 0x00];
  const dht = [0xff, 0xc4, 0x00, 2 + 2 * 18, ...oneCode(0), ...oneCode(1)];
  const sos = [0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00];
  // Two zero bits a block; the last byte padded with one bits, as the standard says.
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const scan = new Uint8Array(Math.ceil((2 * blocks) / 8));
  const usedBits = (2 * blocks) % 8;
  if (usedBits > 0) scan[scan.length - 1] = 0xff >> usedBits;
  if (scan[scan.length - 1] === 0xff) scan[scan.length - 1] = 0x7f;
  const fixed = 2 + app0.length + dqt.length + sof0.length + dht.length + sos.length + scan.length + 2;
  let pad = Math.max(0, bytes - fixed);
  const comments: number[] = [];
  while (pad >= 4) {
    // 1-3 bytes left over, too few for a comment, go as fill bytes before the next marker.
    const body = Math.min(pad - 4, 65_533);
    comments.push(0xff, 0xfe, (body + 2) >> 8, (body + 2) & 255, ...Array(body).fill(0x20));
    pad -= 4 + body;
  }
  const fill = Array(pad).fill(0xff);
  return new Uint8Array([
    0xff,
    0xd8,
    ...app0,
    ...comments,
    ...fill,
    ...dqt,
    ...sof0,
    ...dht,
    ...sos,
    ...scan,
    0xff,
    0xd9,
  ]);
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG made of these chunks, each with its right CRC. */
function pngOf(...chunks: [type: string, data: Uint8Array][]): Uint8Array {
  return Buffer.concat([Buffer.from(PNG_SIGNATURE), ...chunks.map(([t, d]) => chunk(t, d))]);
}

function ihdr(width: number, height: number, depth = 8, colour = 2): Uint8Array {
  const h = Buffer.alloc(13);
  h.writeUInt32BE(width, 0);
  h.writeUInt32BE(height, 4);
  h.set([depth, colour, 0, 0, 0], 8);
  return h;
}

/** Seeded bytes of no structure. */
function noise(n: number, seed = 7): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1_103_515_245 + 12_345) >>> 0;
    out[i] = s >>> 24;
  }
  return out;
}

const HTML = new TextEncoder().encode("<html><script>alert(document.cookie)</script></html>".repeat(20));

/**
 * What the box refuses as a photo although its header is a PNG's or a JPEG's, one of each kind,
 * with a word of the reason it gives: the table the domain's test and the route tests read.
 */
export function notPhotos(): {
  kind: string;
  type: "image/png" | "image/jpeg";
  bytes: Uint8Array;
  why: string;
}[] {
  const png = pngPhoto(64, 48, 3);
  const rows = (n: number, width: number, filter = 0) => {
    const raw = new Uint8Array((width * 3 + 1) * n);
    for (let y = 0; y < n; y++) raw[y * (width * 3 + 1)] = filter;
    return raw;
  };
  const jpeg = jpegHead(64, 48, 2_000);
  const without = (marker: number) => {
    // The JPEG less its first segment with this marker.
    for (let i = 2; i < jpeg.length - 3; i++)
      if (jpeg[i] === 0xff && jpeg[i + 1] === marker) {
        const length = (jpeg[i + 2]! << 8) | jpeg[i + 3]!;
        return new Uint8Array([...jpeg.subarray(0, i), ...jpeg.subarray(i + 2 + length)]);
      }
    throw new Error(`no FF${marker.toString(16)} segment`);
  };
  const patched = (find: number[], replace: number[]) => {
    const at = Buffer.from(jpeg).indexOf(Buffer.from(find));
    if (at < 0) throw new Error("not found");
    const out = new Uint8Array(jpeg);
    out.set(replace, at);
    return out;
  };
  const flipped = new Uint8Array(png);
  flipped[png.length - 30] = flipped[png.length - 30]! ^ 0x55;
  return [
    {
      kind: "a PNG header and anything after it",
      type: "image/png",
      bytes: new Uint8Array([...png.subarray(0, 33), ...noise(2000)]),
      why: "chunk",
    },
    { kind: "a PNG with a corrupted byte", type: "image/png", bytes: flipped, why: "CRC" },
    { kind: "a PNG cut short", type: "image/png", bytes: png.subarray(0, png.length - 12), why: "IEND" },
    {
      kind: "a PNG with a page after it",
      type: "image/png",
      bytes: new Uint8Array([...png, ...HTML]),
      why: "after its IEND",
    },
    {
      kind: "a PNG whose image data is not zlib",
      type: "image/png",
      bytes: pngOf(["IHDR", ihdr(64, 48)], ["IDAT", noise(3000)], ["IEND", new Uint8Array()]),
      why: "inflate",
    },
    {
      kind: "a PNG with fewer pixels than its size",
      type: "image/png",
      bytes: pngOf(
        ["IHDR", ihdr(64, 48)],
        ["tEXt", noise(200)],
        ["IDAT", deflateSync(rows(47, 64))],
        ["IEND", new Uint8Array()],
      ),
      why: "inflate",
    },
    {
      kind: "a PNG with a filter that does not exist",
      type: "image/png",
      bytes: pngOf(
        ["IHDR", ihdr(64, 48)],
        ["tEXt", noise(200)],
        ["IDAT", deflateSync(rows(48, 64, 9))],
        ["IEND", new Uint8Array()],
      ),
      why: "filter",
    },
    {
      kind: "a PNG whose bit depth its colour type does not take",
      type: "image/png",
      bytes: pngOf(
        ["IHDR", ihdr(64, 48, 4, 2)],
        ["tEXt", noise(200)],
        ["IDAT", deflateSync(rows(48, 64))],
        ["IEND", new Uint8Array()],
      ),
      why: "bit depth",
    },
    {
      kind: "a PNG with a critical chunk no decoder knows",
      type: "image/png",
      bytes: pngOf(
        ["IHDR", ihdr(64, 48)],
        ["ZZZZ", noise(200)],
        ["IDAT", deflateSync(rows(48, 64))],
        ["IEND", new Uint8Array()],
      ),
      why: "critical chunk",
    },
    {
      kind: "a paletted PNG with no palette",
      type: "image/png",
      bytes: pngOf(
        ["IHDR", ihdr(64, 48, 8, 3)],
        ["tEXt", noise(200)],
        ["IDAT", deflateSync(new Uint8Array(65 * 48))],
        ["IEND", new Uint8Array()],
      ),
      why: "palette",
    },
    {
      kind: "a PNG whose image data has a page after its end",
      type: "image/png",
      bytes: pngOf(
        ["IHDR", ihdr(64, 48)],
        ["IDAT", new Uint8Array([...deflateSync(rows(48, 64)), ...HTML])],
        ["IEND", new Uint8Array()],
      ),
      why: "after its end",
    },
    {
      kind: "a lossless JPEG (browsers do not show it)",
      type: "image/jpeg",
      bytes: patched([0xff, 0xc0, 0x00, 0x0b], [0xff, 0xc3, 0x00, 0x0b]),
      why: "lossless",
    },
    { kind: "a JPEG cut short", type: "image/jpeg", bytes: jpeg.subarray(0, jpeg.length - 2), why: "ends" },
    {
      kind: "a JPEG with a page after it",
      type: "image/jpeg",
      bytes: new Uint8Array([...jpeg, ...HTML]),
      why: "after its EOI",
    },
    {
      kind: "a JPEG with no scan",
      type: "image/jpeg",
      bytes: new Uint8Array([
        ...jpeg.subarray(0, Buffer.from(jpeg).indexOf(Buffer.from([0xff, 0xda]))),
        0xff,
        0xd9,
      ]),
      why: "no image data",
    },
    {
      kind: "a JPEG whose segment runs past its end",
      type: "image/jpeg",
      bytes: patched([0xff, 0xc4], [0xff, 0xc4, 0xff, 0xf0]),
      why: "past the end",
    },
    { kind: "a JPEG without its Huffman tables", type: "image/jpeg", bytes: without(0xc4), why: "Huffman" },
    {
      kind: "a JPEG without its quantization table",
      type: "image/jpeg",
      bytes: without(0xdb),
      why: "quantization",
    },
    {
      kind: "a JPEG whose scan names a component its frame lacks",
      type: "image/jpeg",
      bytes: patched([0xff, 0xda, 0x00, 0x08, 0x01, 0x01], [0xff, 0xda, 0x00, 0x08, 0x01, 0x05]),
      why: "component",
    },
    {
      kind: "a JPEG header and anything after it",
      type: "image/jpeg",
      bytes: new Uint8Array([...jpeg.subarray(0, 20), ...noise(2000).map((b) => b & 0x7f)]),
      why: "",
    },
  ];
}
