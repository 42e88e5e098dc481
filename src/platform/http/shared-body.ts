/**
 * Large answers many clients ask for at once (a busy zone's check-tickets, 14 MB for 80,000
 * plates; the 500-lot list, 600 KB) go out from one buffer: whoever keeps the answer (the read
 * model, the lot reads) keeps it as its bytes, encoded once, and the front end writes every
 * connection from them; each connection keeps only its place in them. A Response made from the
 * text would encode it anew for each request, and its bytes() copy it again. The answer's owner
 * is the one cache: when it lets the answer go, its bytes go with it.
 */
const bodies = new WeakMap<Response, Uint8Array<ArrayBuffer>>();

/** From this size a kept answer is kept as its bytes; smaller ones go as their text. */
const SHARED_FROM = 16 * 1024;

/** An answer's body as its owner keeps it to send many times: its text, or from SHARED_FROM its bytes. */
export type KeptBody = string | Uint8Array<ArrayBuffer>;

/** `text` as a kept body: its bytes once it is large enough to be shared, else itself. */
export function keptBody(text: string): KeptBody {
  return text.length >= SHARED_FROM ? Buffer.from(text, "utf8") : text;
}

/** A Response for a kept body: bytes are written from the one buffer (sharedBodyResponse). */
export function bodyResponse(body: KeptBody, headers: Record<string, string>): Response {
  return typeof body === "string" ? new Response(body, { headers }) : sharedBodyResponse(body, headers);
}

/** A Response whose body the front end writes from `bytes` itself, which must not change. */
export function sharedBodyResponse(
  bytes: Uint8Array<ArrayBuffer>,
  headers: Record<string, string>,
): Response {
  // Bun copies bytes given to a Response when it is made; a stream hands them over only when read
  // (by a caller other than the front end: a route test through app.handle), by reference.
  const response = new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    }),
    { headers: { ...headers, "content-length": String(bytes.length) } },
  );
  bodies.set(response, bytes);
  return response;
}

/** The shared bytes of a Response made by sharedBodyResponse; undefined for any other. */
export function sharedBodyOf(response: Response): Uint8Array<ArrayBuffer> | undefined {
  return bodies.get(response);
}
