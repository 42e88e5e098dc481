import type { AnyElysia } from "elysia";
import type { ApiContract } from "./http/api-contract.ts";

/** Keeps `stop` to run at shutdown; the newest held is stopped first. */
export type JobHolder = (name: string, stop: () => void | Promise<void>) => void;

/**
 * What a module hands the composition root (src/app.ts): its routes (each declared once, with
 * everything the box makes of it: route-declaration.ts), the shapes the OpenAPI document names,
 * and the background work `serve` runs beside the requests.
 * Tests build the same modules and leave `start` uncalled.
 */
export interface AppModule {
  readonly name: string;
  readonly routes: AnyElysia;
  readonly contracts: readonly ApiContract[];
  start?(hold: JobHolder): void;
}
