import { type Actor, CLI_ACTOR } from "../../domain/changes.ts";
import { type Credential, credentialLabel } from "../../domain/credentials.ts";

export { CLI_ACTOR };

/**
 * Who made a write, for the change history: the credential, and whether it came from the
 * console (a browser session: no Authorization header) or from an API client.
 */
export function actorOf(credential: Credential, request: Request): Actor {
  return { who: credentialLabel(credential), via: request.headers.has("authorization") ? "api" : "console" };
}

/** A write from the attendant's page: a browser session there is a handheld, not the console. */
export function attendantActorOf(credential: Credential, request: Request): Actor {
  return {
    who: credentialLabel(credential),
    via: request.headers.has("authorization") ? "api" : "handheld",
  };
}
