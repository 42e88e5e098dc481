/**
 * The one table of problem types (RFC 9457): every problem+json answer the box can give, with its
 * status, its title and the routes that may answer it. Clients branch on the type
 * (`/problems/<type>`), so a type, status or title here never changes once served.
 *
 * It is data only, in the domain so that every layer may read it: the rules and the services
 * throw a `Problem` naming a type of it (`refuse()`, errors.ts), the platform answers with the
 * entry's status and title, and the OpenAPI document lists each route's problems from `routes`.
 * A new refusal is one entry here (in its audience's section), then `refuse("<type>", detail)`.
 */

/** An operation as its module's contract names it: `"METHOD /path/:param"`. */
export type OperationKey = `${"GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE"} /${string}`;

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
  /** The routes that may answer it: classes of routes, or operations by name. */
  routes: readonly (RouteClass | OperationKey)[];
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
    routes: ["input"],
  },
  "malformed-json": {
    status: 400,
    title: "Malformed JSON",
    example: "The body is not valid JSON",
    // The interface's check-tickets example sends a JSON body on the GET.
    routes: ["body", "GET /api/v1/attendants/check-tickets"],
  },
  "invalid-encoding": {
    status: 400,
    title: "Body is not UTF-8",
    example: "The body is not valid UTF-8; send JSON in UTF-8",
    routes: ["body", "GET /api/v1/attendants/check-tickets"],
  },
  "unsupported-media-type": {
    status: 415,
    title: "Unsupported media type",
    example: "The body must be JSON (Content-Type: application/json), not text/plain",
    routes: ["body", "GET /api/v1/attendants/check-tickets"],
  },
  "payload-too-large": {
    status: 413,
    title: "Payload too large",
    example: "The request body is larger than 65536 bytes",
    routes: ["every"],
  },
  unauthorized: {
    status: 401,
    title: "Authentication required",
    example: "The credentials are unknown, expired or revoked",
    // The session routes check a credential themselves (a sign-in, a session cookie).
    routes: ["credential", "POST /api/v1/session", "GET /api/v1/session"],
  },
  "too-many-requests": {
    status: 429,
    title: "Too many failed authentications",
    example: "Too many failed authentications from this address; try again later",
    routes: ["credential", "POST /api/v1/session"],
  },
  "rate-limited": {
    status: 429,
    title: "Rate limit exceeded",
    example: "This credential sent more than 100 requests a second; try again in 1 s",
    routes: ["credential", "address-limited"],
  },
  "insufficient-scope": {
    status: 403,
    title: "Insufficient scope",
    example: "This credential lacks the scope admin",
    routes: ["scope"],
  },
  csrf: {
    status: 403,
    title: "Missing or wrong CSRF token",
    example: "A write through a browser session needs the header X-CSRF-Token with the session's csrf value",
    routes: ["credential-write", "DELETE /api/v1/session"],
  },
  "cross-origin": {
    status: 403,
    title: "Cross-origin request refused",
    example:
      "Only the app's own pages may do this: the request's Origin or Sec-Fetch-Site names another site, port or scheme",
    routes: ["POST /api/v1/session"],
  },
  "password-checks-busy": {
    status: 503,
    title: "Password checks busy",
    example: "8 password checks are waiting; try again in 1 s",
    routes: ["basic", "POST /api/v1/session"],
  },
  "precondition-failed": {
    status: 412,
    title: "Changed since it was read",
    example:
      'Parking lot 12 was changed by someone else since the version named in If-Match was read; nothing was written. Its current ETag is "1x2y3z"',
    routes: [
      "PUT /api/v1/parkings/:id",
      "PATCH /api/v1/parkings/:id",
      "DELETE /api/v1/parkings/:id",
      "PUT /api/v1/permits/:id",
      "PATCH /api/v1/permits/:id",
      "DELETE /api/v1/permits/:id",
    ],
  },

  // Answered by the front end before any route.
  "malformed-request": {
    status: 400,
    title: "Malformed HTTP request",
    example: "The request is not valid HTTP/1.1: bad request line",
    routes: ["front-end"],
  },
  "request-target-not-utf8": {
    status: 400,
    title: "Request target not UTF-8",
    example: "The request target is not UTF-8",
    routes: ["front-end"],
  },
  "not-found": {
    status: 404,
    title: "Not found",
    example: "No route for GET /api/v1/nothing",
    routes: ["front-end"],
  },
  "method-not-allowed": {
    status: 405,
    title: "Method not allowed",
    example: "/api/v1/parkings does not take PATCH; it takes GET, HEAD, POST",
    routes: ["front-end"],
  },
  "request-timeout": {
    status: 408,
    title: "Request timeout",
    example: "The request did not arrive in time",
    routes: ["front-end"],
  },
  "expectation-failed": {
    status: 417,
    title: "Expectation failed",
    example: 'The expectation "200-ok" cannot be met; the only one served is 100-continue',
    routes: ["front-end"],
  },
  "misdirected-request": {
    status: 421,
    title: "Misdirected request",
    example: 'This server does not answer for the host "elsewhere.example" (see --allowed-hosts)',
    routes: ["front-end"],
  },
  "header-too-large": {
    status: 431,
    title: "Request header fields too large",
    example: "The request's header is larger than 16384 bytes",
    routes: ["front-end"],
  },
  "too-many-connections": {
    status: 503,
    title: "Too many connections",
    example: "This address holds 64 open connections, the most it may",
    routes: ["front-end"],
  },

  // Terminals: ticket events (the event rules, src/domain/tickets/rules.ts).
  "ticket-not-found": {
    status: 404,
    title: "Ticket not found",
    example: 'TicketUpdated needs an existing ticket; no ticket has ticketId "100234"',
    routes: ["POST /api/v1/actions/tickets", "GET /api/v1/tickets/:ticketId", "GET /api/v1/ticket"],
  },
  "ticket-exists": {
    status: 409,
    title: "Ticket already exists",
    example: 'Ticket "100234" already exists with different content; send TicketUpdated to change it',
    routes: ["POST /api/v1/actions/tickets"],
  },
  "plate-mismatch": {
    status: 409,
    title: "License number does not match",
    example: 'fromLicenseNumber does not match the license number of ticket "100234"',
    routes: ["POST /api/v1/actions/tickets"],
  },
  "ticket-canceled": {
    status: 409,
    title: "Ticket is canceled",
    example: 'Ticket "100234" is canceled; TicketUpdated cannot change it',
    routes: ["POST /api/v1/actions/tickets"],
  },
  "ticket-event-limit": {
    status: 409,
    title: "Too many events for this ticket",
    example: 'Ticket "100234" already has 1000 events, the most one ticket may have; nothing was stored',
    routes: ["POST /api/v1/actions/tickets"],
  },

  // Attendants: lookups, the live feed, marks and notices.
  "lookup-parameters": {
    status: 400,
    title: "Exactly one of registration_number or zone",
    example: "Give registration_number or zone, in the query string or in a JSON body",
    routes: ["GET /api/v1/attendants/check-tickets"],
  },
  "bad-request": {
    status: 400,
    title: "Bad request",
    example: "zone is given in both the query string and the body, with different values",
    routes: ["GET /api/v1/attendants/check-tickets", "GET /api/v1/attendants/checks"],
  },
  "too-many-feeds": {
    status: 429,
    title: "Too many open feeds",
    example: "This credential already holds 8 open zone feeds; close one first",
    routes: ["GET /api/v1/tickets/zone/:zone/events"],
  },
  "zone-without-time-limit": {
    status: 400,
    title: "Zone has no time limit",
    example:
      "Zone 1002 has no parking lot with a time limit (max_time); a car is marked only where one is posted",
    routes: ["POST /api/v1/attendants/observations"],
  },
  "mark-exists": {
    status: 409,
    title: "Another mark has this id",
    example:
      "Mark id 3f2a9c1e-… is already stored for another car, zone or note; a retry must send the same mark",
    routes: ["POST /api/v1/attendants/observations"],
  },
  "marked-later-elsewhere": {
    status: 409,
    title: "Marked later in another zone",
    example:
      "ABC123 was marked in zone 1003 at 2026-06-15T10:32:00.000000Z, after this mark's time (2026-06-15T10:02:00.000000Z): the later mark stands",
    routes: ["POST /api/v1/attendants/observations"],
  },
  "notice-exists": {
    status: 409,
    title: "Another notice has this id",
    example: "Notice id 3f2a9c1e-… is already stored with other content; a retry must send the same notice",
    routes: ["POST /api/v1/attendants/notices"],
  },
  "notice-not-found": {
    status: 404,
    title: "Notice not found",
    example: "There is no notice number 17",
    routes: [
      "POST /api/v1/attendants/notices/:id/photos",
      "GET /api/v1/notices/:number",
      "GET /api/v1/notices/:number/photos/:hash",
      "POST /api/v1/notices/:number/void",
    ],
  },
  "notice-voided": {
    status: 409,
    title: "Notice already void",
    example: "Notice 17 was voided at 2026-06-15T10:02:00.000000Z by user:anna",
    routes: ["POST /api/v1/attendants/notices/:id/photos", "POST /api/v1/notices/:number/void"],
  },
  "reason-unknown": {
    status: 400,
    title: "Unknown reason",
    example: 'The site has no active reason "no-permt"; GET /api/v1/attendants/notice-reasons lists them',
    routes: ["POST /api/v1/attendants/notices"],
  },
  "reason-not-for-verdict": {
    status: 400,
    title: "Reason not for this verdict",
    example:
      'The reason "over-time" is not for a notice after the verdict NO VALID PERMIT; GET /api/v1/attendants/notice-reasons says which verdicts each reason follows',
    routes: ["POST /api/v1/attendants/notices"],
  },
  "reason-exists": {
    status: 409,
    title: "Reason code in use",
    example: 'A reason "no-permit" already exists',
    routes: ["POST /api/v1/notice-reasons"],
  },
  "reason-not-found": {
    status: 404,
    title: "Reason not found",
    example: 'There is no reason "no-permt"',
    routes: ["PATCH /api/v1/notice-reasons/:code"],
  },
  "photo-invalid": {
    status: 400,
    title: "Not a usable photo",
    example: "The body is not a JPEG or PNG image",
    routes: ["POST /api/v1/attendants/notices/:id/photos"],
  },
  "too-many-photos": {
    status: 409,
    title: "Notice has its photos",
    example: "Notice 17 already has 3 photos, the most it may have",
    routes: ["POST /api/v1/attendants/notices/:id/photos"],
  },
  "photo-not-found": {
    status: 404,
    title: "Photo not found",
    example: "Notice 17 has no photo with this hash",
    routes: ["GET /api/v1/notices/:number/photos/:hash"],
  },
  "photo-storage-full": {
    status: 503,
    title: "No room for photos",
    example: "The disk holding the photos is full; the notice itself is stored. Send the photo again later",
    routes: ["POST /api/v1/attendants/notices/:id/photos"],
  },

  // Kiosks, apps and drivers: lots and the board.
  "lot-not-found": {
    status: 404,
    title: "Parking lot not found",
    example: "There is no parking lot 12",
    routes: [
      "GET /api/v1/parkings/:id",
      "GET /api/v1/parkings/:id/quote",
      "PUT /api/v1/parkings/:id",
      "PATCH /api/v1/parkings/:id",
      "DELETE /api/v1/parkings/:id",
    ],
  },
  "too-many-boards": {
    status: 429,
    title: "Too many open boards",
    example: "64 board streams are open; try again later",
    routes: ["GET /api/v1/board/events"],
  },

  // Operators: lots, permits, credentials; the handheld's setup.
  "lot-exists": {
    status: 409,
    title: "Parking lot exists",
    example: "There is already a parking lot 12",
    routes: ["POST /api/v1/parkings"],
  },
  "permit-not-found": {
    status: 404,
    title: "Permit not found",
    example: "There is no permit with id 7",
    routes: [
      "GET /api/v1/permits/:id",
      "PUT /api/v1/permits/:id",
      "PATCH /api/v1/permits/:id",
      "DELETE /api/v1/permits/:id",
    ],
  },
  "credential-exists": {
    status: 409,
    title: "Name in use",
    example: 'a token named "handheld-1" already exists; revoke it first',
    routes: ["POST /api/v1/tokens", "POST /api/v1/users"],
  },
  "credential-not-found": {
    status: 404,
    title: "No such credential",
    example: 'no live token with id or name "tok_3f9a1c22b7e4"',
    routes: ["DELETE /api/v1/tokens/:id", "DELETE /api/v1/users/:id", "POST /api/v1/session/codes"],
  },
  "no-local-ca": {
    status: 404,
    title: "This box has no local certificate authority",
    example:
      "The box serves a certificate it did not issue, or plain HTTP: there is no CA for a handheld to install",
    routes: ["GET /handheld/parkd-ca.crt", "GET /handheld/parkd-ca.mobileconfig"],
  },

  // The answers of last resort.
  internal: {
    status: 500,
    title: "Internal error",
    example: "The request could not be completed; the error has been logged",
    routes: ["every"],
  },
  "store-unavailable": {
    status: 503,
    title: "Store unavailable",
    example: "The store is not writable; the request changed nothing",
    routes: ["store"],
  },
  // Answered to every request while serve prepares the store (an upgrade), with Retry-After.
  starting: {
    status: 503,
    title: "Starting",
    example:
      "The box is starting: step 2 of 3: upgrading the store's schema from version 9 to 14 (40 s so far); try again shortly",
    routes: ["every"],
  },
} as const satisfies Record<string, ProblemEntry>;

export type ProblemType = keyof typeof PROBLEMS;

/** The type as a client reads it in the answer's `type` member. */
export function problemTypeUri(type: string): string {
  return `/problems/${type}`;
}
