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
 * The head of a baseline JPEG (SOI, JFIF APP0, SOF0 with the size) and `bytes` in all: what the
 * box reads of a photo's type and size. Not decodable; the browser tests use real ones.
 */
export function jpegHead(width: number, height: number, bytes = 2_000): Uint8Array {
  const out = new Uint8Array(bytes);
  const app0 = [
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x00,
  ];
  const sof0 = [0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 0x03];
  out.set([0xff, 0xd8, ...app0, ...sof0], 0);
  for (let i = 2 + app0.length + sof0.length; i < bytes - 2; i++) out[i] = (i * 31) & 0x7f;
  out.set([0xff, 0xd9], bytes - 2);
  return out;
}
