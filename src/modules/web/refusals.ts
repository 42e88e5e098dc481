import type { RefusalTable } from "../../domain/errors.ts";

/** What the web app's sessions and handheld setup refuse. */
export const WEB_REFUSALS = {
  "no-local-ca": {
    kind: "not-found",
    title: "This box has no local certificate authority",
    example:
      "The box serves a certificate it did not issue, or plain HTTP: there is no CA for a handheld to install",
  },
  csrf: {
    kind: "forbidden",
    title: "Missing or wrong CSRF token",
    example: "A write through a browser session needs the header X-CSRF-Token with the session's csrf value",
  },
} as const satisfies RefusalTable;
