import type { AnyElysia } from "elysia";
import type { ApiContract } from "./http/api-contract.ts";
import type { DirectRoute } from "./http/direct.ts";
import type { RawBodyRoute } from "./http/request-body.ts";

/** Keeps `stop` to run at shutdown; the newest held is stopped first. */
export type JobHolder = (name: string, stop: () => void | Promise<void>) => void;

/**
 * What a module hands the composition root (src/app.ts): its routes, what the OpenAPI document
 * says of them beyond their schemas, and the background work `serve` runs beside the requests.
 * Tests build the same modules and leave `start` uncalled.
 */
export interface AppModule {
  readonly name: string;
  readonly routes: AnyElysia;
  readonly contracts: readonly ApiContract[];
  /** Routes that take raw bytes (photos) up to their own limit instead of a JSON body. */
  readonly rawBodies?: readonly RawBodyRoute[];
  /** Its hottest GETs, answered by the front end in the plain case (direct.ts); the app's routes stay. */
  readonly direct?: readonly DirectRoute[];
  start?(hold: JobHolder): void;
}
