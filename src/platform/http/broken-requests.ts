import { refuse } from "../../domain/errors.ts";
import type { HeadError } from "./http1.ts";
import type { Problem } from "./problem.ts";

/** nginx's code for a request whose client went away before it was read; never sent. */
export const CLIENT_CLOSED = 499;

/**
 * The answers the front end gives itself, before a request reaches the app: a request too broken
 * to read, one that did not arrive in time, a Host this box does not answer for, too many
 * connections. Each closes its connection.
 */
export const FRONT_END_PROBLEMS = {
  malformed: (why: string) => refuse("malformed-request", `The request is not valid HTTP/1.1: ${why}`),
  "too-large": (why: string) => refuse("header-too-large", why),
  "not-utf8": (why: string) =>
    refuse(
      "request-target-not-utf8",
      `${why}; send UTF-8, raw or percent-encoded (ÖZB771 is %C3%96ZB771; ` +
        "curl -G URL --data-urlencode registration_number=ÖZB771)",
    ),
  "expectation-failed": (why: string) => refuse("expectation-failed", why),
  requestTimeout: (detail = "The request did not arrive in time") => refuse("request-timeout", detail),
  misdirected: (host: string) =>
    refuse(
      "misdirected-request",
      `This server does not answer for the host ${JSON.stringify(host)} (see --allowed-hosts)`,
    ),
  tooManyConnections: (detail: string) =>
    refuse("too-many-connections", detail, { headers: { "retry-after": "1" } }),
} as const;

export function brokenRequest(error: HeadError, why: string): Problem {
  return FRONT_END_PROBLEMS[error](why);
}
