/**
 * The one table of problem types (RFC 9457): every problem+json answer the box can give, with its
 * status, its title and the classes of routes that may answer it. Clients branch on the type
 * (`/problems/<type>`), so a type, status or title here never changes once served.
 *
 * It is data only, in the domain so that every layer may read it: the rules and the services
 * throw a `Problem` naming a type of it (`refuse()`, errors.ts), the platform answers with the
 * entry's status and title, and the OpenAPI document lists on each route the problems of its
 * classes here and those the route declares itself (its `operation`'s `problems`). A new refusal
 * is one entry here (in its audience's section), `refuse("<type>", detail)` where it is decided,
 * and the type in the `problems` of each route that may answer it.
 */

/**
 * Routes by what they are, for the problems any such route may answer (the document lists them
 * on each): `every` route; `input`, a route with a body schema or parameters; `body`, every
 * method but GET and HEAD (a body is parsed whether or not the route reads it); `credential`, a
 * route that needs a credential; `scope`, one that needs a scope; `credential-write`, a write
 * that needs a credential (a browser session's writes need its csrf value); `basic`, a route
 * that takes Basic (a password check); `address-limited`, a public route limited by client
 * address; `store`, a route that touches the store; `front-end`, answered before any route is
 * chosen (a broken request, an unknown path), so on no route of the document.
 */
export type RouteClass =
  | "every"
  | "input"
  | "body"
  | "credential"
  | "scope"
  | "credential-write"
  | "basic"
  | "address-limited"
  | "store"
  | "front-end";

export interface ProblemEntry {
  status: number;
  title: string;
  /** A typical detail, for the document's examples. */
  example: string;
  /**
   * The classes of routes that may answer it; empty when only the routes that name it in their
   * own `problems` do.
   */
  classes: readonly RouteClass[];
}

/*
 * In the order the document lists a status's problem types: what every route answers first,
 * then each audience's refusals, the answers of last resort at the end.
 */
export const PROBLEMS = {
  // What any route answers, by what it is.
  validation: {
    status: 400,
    title: "Request failed validation",
    example: "/licenseNumber: must be a license number string of 1 to 32 characters",
    classes: ["input"],
  },
  "malformed-json": {
    status: 400,
    title: "Malformed JSON",
    example: "The body is not valid JSON",
    classes: ["body"],
  },
  "invalid-encoding": {
    status: 400,
    title: "Body is not UTF-8",
    example: "The body is not valid UTF-8; send JSON in UTF-8",
    classes: ["body"],
  },
  "unsupported-media-type": {
    status: 415,
    title: "Unsupported media type",
    example: "The body must be JSON (Content-Type: application/json), not text/plain",
    classes: ["body"],
  },
  "payload-too-large": {
    status: 413,
    title: "Payload too large",
    example: "The request body is larger than 65536 bytes",
    classes: ["every"],
  },
  unauthorized: {
    status: 401,
    title: "Authentication required",
    example: "The credentials are unknown, expired or revoked",
    classes: ["credential"],
  },
  "too-many-requests": {
    status: 429,
    title: "Too many failed authentications",
    example: "Too many failed authentications from this address; try again later",
    classes: ["credential"],
  },
  "rate-limited": {
    status: 429,
    title: "Rate limit exceeded",
    example: "This credential sent more than 100 requests a second; try again in 1 s",
    classes: ["credential", "address-limited"],
  },
  "insufficient-scope": {
    status: 403,
    title: "Insufficient scope",
    example: "This credential lacks the scope admin",
    classes: ["scope"],
  },
  csrf: {
    status: 403,
    title: "Missing or wrong CSRF token",
    example: "A write through a browser session needs the header X-CSRF-Token with the session's csrf value",
    classes: ["credential-write"],
  },
  "cross-origin": {
    status: 403,
    title: "Cross-origin request refused",
    example:
      "Only the app's own pages may do this: the request's Origin or Sec-Fetch-Site names another site, port or scheme",
    classes: [],
  },
  "password-checks-busy": {
    status: 503,
    title: "Password checks busy",
    example: "8 password checks are waiting; try again in 1 s",
    classes: ["basic"],
  },
  "precondition-failed": {
    status: 412,
    title: "Changed since it was read",
    example:
      'Parking lot 12 was changed by someone else since the version named in If-Match was read; nothing was written. Its current ETag is "1x2y3z"',
    classes: [],
  },

  // Answered by the front end before any route.
  "malformed-request": {
    status: 400,
    title: "Malformed HTTP request",
    example: "The request is not valid HTTP/1.1: bad request line",
    classes: ["front-end"],
  },
  "request-target-not-utf8": {
    status: 400,
    title: "Request target not UTF-8",
    example: "The request target is not UTF-8",
    classes: ["front-end"],
  },
  "not-found": {
    status: 404,
    title: "Not found",
    example: "No route for GET /api/v1/nothing",
    classes: ["front-end"],
  },
  "method-not-allowed": {
    status: 405,
    title: "Method not allowed",
    example: "/api/v1/parkings does not take PATCH; it takes GET, HEAD, POST",
    classes: ["front-end"],
  },
  "request-timeout": {
    status: 408,
    title: "Request timeout",
    example: "The request did not arrive in time",
    classes: ["front-end"],
  },
  "expectation-failed": {
    status: 417,
    title: "Expectation failed",
    example: 'The expectation "200-ok" cannot be met; the only one served is 100-continue',
    classes: ["front-end"],
  },
  "misdirected-request": {
    status: 421,
    title: "Misdirected request",
    example: 'This server does not answer for the host "elsewhere.example" (see --allowed-hosts)',
    classes: ["front-end"],
  },
  "header-too-large": {
    status: 431,
    title: "Request header fields too large",
    example: "The request's header is larger than 16384 bytes",
    classes: ["front-end"],
  },
  "too-many-connections": {
    status: 503,
    title: "Too many connections",
    example: "This address holds 64 open connections, the most it may",
    classes: ["front-end"],
  },

  // Terminals: ticket events (the event rules, src/domain/tickets/rules.ts).
  "ticket-not-found": {
    status: 404,
    title: "Ticket not found",
    example: 'TicketUpdated needs an existing ticket; no ticket has ticketId "100234"',
    classes: [],
  },
  "ticket-exists": {
    status: 409,
    title: "Ticket already exists",
    example: 'Ticket "100234" already exists with different content; send TicketUpdated to change it',
    classes: [],
  },
  "plate-mismatch": {
    status: 409,
    title: "License number does not match",
    example: 'fromLicenseNumber does not match the license number of ticket "100234"',
    classes: [],
  },
  "ticket-canceled": {
    status: 409,
    title: "Ticket is canceled",
    example: 'Ticket "100234" is canceled; TicketUpdated cannot change it',
    classes: [],
  },
  "ticket-event-limit": {
    status: 409,
    title: "Too many events for this ticket",
    example: 'Ticket "100234" already has 1000 events, the most one ticket may have; nothing was stored',
    classes: [],
  },

  // Attendants: lookups, the live feed, marks and notices.
  "lookup-parameters": {
    status: 400,
    title: "Exactly one of registration_number or zone",
    example: "Give registration_number or zone, in the query string or in a JSON body",
    classes: [],
  },
  "bad-request": {
    status: 400,
    title: "Bad request",
    example: "zone is given in both the query string and the body, with different values",
    classes: [],
  },
  "too-many-feeds": {
    status: 429,
    title: "Too many open feeds",
    example: "This credential already holds 8 open zone feeds; close one first",
    classes: [],
  },
  "zone-without-time-limit": {
    status: 400,
    title: "Zone has no time limit",
    example:
      "Zone 1002 has no parking lot with a time limit (max_time); a car is marked only where one is posted",
    classes: [],
  },
  "mark-exists": {
    status: 409,
    title: "Another mark has this id",
    example:
      "Mark id 3f2a9c1e-… is already stored for another car, zone or note; a retry must send the same mark",
    classes: [],
  },
  "marked-later-elsewhere": {
    status: 409,
    title: "Marked later in another zone",
    example:
      "ABC123 was marked in zone 1003 at 2026-06-15T10:32:00.000000Z, after this mark's time (2026-06-15T10:02:00.000000Z): the later mark stands",
    classes: [],
  },
  "notice-exists": {
    status: 409,
    title: "Another notice has this id",
    example: "Notice id 3f2a9c1e-… is already stored with other content; a retry must send the same notice",
    classes: [],
  },
  "notice-not-found": {
    status: 404,
    title: "Notice not found",
    example: "There is no notice number 17",
    classes: [],
  },
  "notice-voided": {
    status: 409,
    title: "Notice already void",
    example: "Notice 17 was voided at 2026-06-15T10:02:00.000000Z by user:anna",
    classes: [],
  },
  "reason-unknown": {
    status: 400,
    title: "Unknown reason",
    example: 'The site has no active reason "no-permt"; GET /api/v1/attendants/notice-reasons lists them',
    classes: [],
  },
  "reason-not-for-verdict": {
    status: 400,
    title: "Reason not for this verdict",
    example:
      'The reason "over-time" is not for a notice after the verdict NO VALID PERMIT; GET /api/v1/attendants/notice-reasons says which verdicts each reason follows',
    classes: [],
  },
  "reason-exists": {
    status: 409,
    title: "Reason code in use",
    example: 'A reason "no-permit" already exists',
    classes: [],
  },
  "reason-not-found": {
    status: 404,
    title: "Reason not found",
    example: 'There is no reason "no-permt"',
    classes: [],
  },
  "photo-invalid": {
    status: 400,
    title: "Not a usable photo",
    example: "The body is not a JPEG or PNG image",
    classes: [],
  },
  "too-many-photos": {
    status: 409,
    title: "Notice has its photos",
    example: "Notice 17 already has 3 photos, the most it may have",
    classes: [],
  },
  "photo-not-found": {
    status: 404,
    title: "Photo not found",
    example: "Notice 17 has no photo with this hash",
    classes: [],
  },
  "photo-storage-full": {
    status: 503,
    title: "No room for photos",
    example: "The disk holding the photos is full; the notice itself is stored. Send the photo again later",
    classes: [],
  },

  // Kiosks, apps and drivers: lots and the board.
  "lot-not-found": {
    status: 404,
    title: "Parking lot not found",
    example: "There is no parking lot 12",
    classes: [],
  },
  "too-many-boards": {
    status: 429,
    title: "Too many open boards",
    example: "64 board streams are open; try again later",
    classes: [],
  },

  // Operators: lots, permits, credentials; the handheld's setup.
  "lot-exists": {
    status: 409,
    title: "Parking lot exists",
    example: "There is already a parking lot 12",
    classes: [],
  },
  "permit-not-found": {
    status: 404,
    title: "Permit not found",
    example: "There is no permit with id 7",
    classes: [],
  },
  "credential-exists": {
    status: 409,
    title: "Name in use",
    example: 'a token named "handheld-1" already exists; revoke it first',
    classes: [],
  },
  "credential-not-found": {
    status: 404,
    title: "No such credential",
    example: 'no live token with id or name "tok_3f9a1c22b7e4"',
    classes: [],
  },
  "no-local-ca": {
    status: 404,
    title: "This box has no local certificate authority",
    example:
      "The box serves a certificate it did not issue, or plain HTTP: there is no CA for a handheld to install",
    classes: [],
  },

  // The answers of last resort.
  internal: {
    status: 500,
    title: "Internal error",
    example: "The request could not be completed; the error has been logged",
    classes: ["every"],
  },
  "store-unavailable": {
    status: 503,
    title: "Store unavailable",
    example: "The store is not writable; the request changed nothing",
    classes: ["store"],
  },
  // Answered to every request while serve prepares the store (an upgrade), with Retry-After.
  starting: {
    status: 503,
    title: "Starting",
    example:
      "The box is starting: step 2 of 3: upgrading the store's schema from version 9 to 14 (40 s so far); try again shortly",
    classes: ["every"],
  },
} as const satisfies Record<string, ProblemEntry>;

export type ProblemType = keyof typeof PROBLEMS;

/** The type as a client reads it in the answer's `type` member. */
export function problemTypeUri(type: string): string {
  return `/problems/${type}`;
}
