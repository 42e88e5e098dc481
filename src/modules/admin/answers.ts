/** What a route's answer carries besides its body, as the operators' writes set it. */
interface Answered {
  status?: number | string;
  headers: Record<string, unknown>;
}

/** The If-Match a write was sent with: the stored version its sender read (null: none named). */
export const ifMatch = (request: Request) => request.headers.get("if-match");

/** A record a POST made: 201, with the address its GET answers at. */
export function created<T>(set: Answered, location: string, data: T): { data: T } {
  set.status = 201;
  set.headers.location = location;
  return { data };
}

/** A record with the ETag of its stored version, so an editor can write again without a read. */
export function versioned<T>(set: Answered, etag: string, data: T): { data: T } {
  set.headers.etag = etag;
  return { data };
}
