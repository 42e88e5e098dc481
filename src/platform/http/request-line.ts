const HEX = Array.from({ length: 256 }, (_, b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`);

/**
 * Percent-encodes bytes above 0x7F in the request line at the start of `data` (after any empty
 * lines before it), as a browser would have: `GET /x?p=ÖZB771` sent raw by curl becomes
 * `GET /x?p=%C3%96ZB771`, which the HTTP parser accepts and URL decoding turns back into Ö.
 * Nothing after the request line is touched. `lineOpen`: the chunk ended before the line did.
 */
export function encodeRequestLine(data: Buffer): { data: Buffer; lineOpen: boolean } {
  let start = 0;
  while (start < data.length && (data[start] === 13 || data[start] === 10)) start++;
  const newline = data.indexOf(10, start);
  const end = newline < 0 ? data.length : newline;
  let high = 0;
  for (let i = start; i < end; i++) if (data[i]! > 0x7f) high++;
  if (high === 0) return { data, lineOpen: newline < 0 };
  const out = Buffer.allocUnsafe(data.length + high * 2);
  let o = data.copy(out, 0, 0, start);
  for (let i = start; i < end; i++) {
    const b = data[i]!;
    if (b > 0x7f) o += out.write(HEX[b]!, o, "latin1");
    else out[o++] = b;
  }
  data.copy(out, o, end);
  return { data: out, lineOpen: newline < 0 };
}
