/**
 * Large answers many clients ask for at once (a busy zone's check-tickets, 14 MB for 80,000
 * plates) go out from one buffer: the route hands the front end the same bytes for every
 * request, and each connection keeps only its place in them. A Response made from the text
 * would encode it anew for each request, and its bytes() copy it again.
 */
const bodies = new WeakMap<Response, Uint8Array<ArrayBuffer>>();
/** Encoded bodies by their text, newest last; the text is the cached answer's own string. */
const encoded = new Map<string, Uint8Array<ArrayBuffer>>();
/** Bytes kept encoded; the oldest go first past it. */
const MAX_KEPT = 32 * 1024 * 1024;
let kept = 0;

/** A Response whose body the front end writes from one shared buffer. */
export function sharedBodyResponse(text: string, headers: Record<string, string>): Response {
  let bytes = encoded.get(text);
  if (bytes === undefined) {
    bytes = Buffer.from(text, "utf8");
    encoded.set(text, bytes);
    kept += bytes.length;
    for (const [oldText, old] of encoded) {
      if (kept <= MAX_KEPT || old === bytes) break;
      encoded.delete(oldText);
      kept -= old.length;
    }
  }
  // Bun copies bytes given to a Response when it is made; a stream hands them over only when read
  // (by a caller other than the front end: a route test through app.handle), by reference.
  const body = bytes;
  const response = new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(body);
        controller.close();
      },
    }),
    { headers: { ...headers, "content-length": String(body.length) } },
  );
  bodies.set(response, bytes);
  return response;
}

/** The shared bytes of a Response made by sharedBodyResponse; undefined for any other. */
export function sharedBodyOf(response: Response): Uint8Array<ArrayBuffer> | undefined {
  return bodies.get(response);
}
