import { Elysia } from "elysia";
import type { AppContext } from "./context.ts";
import { adminCredentials, adminModule } from "./modules/admin/index.ts";
import { enforcementModule } from "./modules/enforcement/index.ts";
import { intakeModule } from "./modules/intake/index.ts";
import { kioskModule } from "./modules/kiosk/index.ts";
import type { RouteInfo } from "./modules/operations/index.ts";
import { operationsModule } from "./modules/operations/index.ts";
import { publicModule } from "./modules/public/index.ts";
import { syncModule } from "./modules/sync/index.ts";
import { webModule, webSessions } from "./modules/web/index.ts";
import { accountRequests } from "./platform/http/accounting.ts";
import { type AuthDeps, refuseQueryTokens } from "./platform/http/auth.ts";
import { directRoutes } from "./platform/http/direct.ts";
import { requestHandling } from "./platform/http/errors.ts";
import { limitMarkedRoutes, type MarkedRoute } from "./platform/http/rate-limit.ts";
import { rawBodies } from "./platform/http/request-body.ts";
import { type Declaration, declarationsOf, directRoutesOf } from "./platform/http/route-declaration.ts";
import { type RouteEntry, routeMethods } from "./platform/http/route-methods.ts";
import type { AppModule } from "./platform/module.ts";

/**
 * A box: its modules built on the platform (`ctx`) and composed into one Elysia app. `serve` puts
 * the app behind the front end and calls `start`; tests call `app.handle` and reach the services
 * a test needs (credentials to mint, the lookup records to flush, the office link) here.
 */
export function composeBox(ctx: AppContext) {
  const { store, now, config, metrics, openStreams } = ctx;
  // Built before the modules: the platform's auth reaches them through its own ports.
  const credentials = adminCredentials({ store, now });
  const sessions = webSessions({ store, credentials, now });
  // A revoked token or deleted user signs its browsers out now, not at their next request.
  credentials.onEnded((c) => sessions.endFor(c.kind, c.id, c.reason, c.sessions));
  const auth: AuthDeps = {
    credentials,
    sessions,
    limiter: ctx.limiter,
    rateLimits: ctx.rateLimits,
    trustedProxies: ctx.trustedProxies,
    metrics,
  };
  const base = { store, now, config, metrics, openStreams, auth };
  const office = syncModule({ ...base, hold: (name, stop) => ctx.hold(name, stop) });
  const enforcement = enforcementModule({ ...base, credentialState: credentials });
  const modules: AppModule[] = [
    publicModule(base),
    intakeModule(base),
    enforcement,
    adminModule({ ...base, credentials }),
    kioskModule({ ...base, trustedProxies: ctx.trustedProxies }),
    webModule({
      ...auth,
      credentials,
      sessions,
      metrics,
      auth,
      now,
      config,
      listening: () => ctx.listening,
      certificate: () => ctx.certificate(),
    }),
  ];
  const contracts = modules.flatMap((m) => m.contracts);
  const raw = rawBodies(
    () =>
      declarations().flatMap((d) =>
        d.rawBody ? [{ method: d.method, route: d.path, limit: d.rawBody.limit }] : [],
      ),
    config.bodyLimit,
  );
  const operations = operationsModule({
    ...base,
    officeLink: () => office.status(),
    // Read at request time, so the document covers every route, whenever it was added.
    routesOf: (): readonly RouteInfo[] => app.routes,
    contracts,
  });
  modules.unshift(operations);
  const composed = new Elysia()
    .use(refuseQueryTokens)
    // Before anything reads the request: a flood of bad bodies counts against its address too.
    .use(limitMarkedRoutes(ctx.rateLimits, (): readonly MarkedRoute[] => app.routes))
    .use(
      requestHandling({
        bodyLimit: config.bodyLimit,
        methodsOf: routeMethods((): readonly RouteEntry[] => app.routes),
        rawBodies: raw,
      }),
    );
  for (const m of modules) composed.use(m.routes);
  const app = accountRequests(composed, ctx.accounting);
  // Every route's declaration, read back once the modules are composed.
  let declared: Declaration[] | undefined;
  function declarations(): Declaration[] {
    declared ??= declarationsOf(app.routes);
    return declared;
  }
  return {
    app,
    auth,
    credentials,
    sessions,
    lookupRecorder: enforcement.lookupRecorder,
    readModel: enforcement.readModel,
    office,
    /** The routes the front end answers itself in the plain case; the app answers the rest. */
    direct: directRoutes(directRoutesOf(declarations()), auth),
    /** The front end's body limit by route: photos are larger than any JSON body. */
    bodyLimitOf: raw.limitOf,
    /** What every module says of its routes in the OpenAPI document, beyond their schemas. */
    contracts: modules.flatMap((m) => m.contracts),
    /** What `serve` runs beside the requests: the store's jobs, then each module's, then the office link. */
    async start(): Promise<void> {
      await ctx.startBackground();
      for (const m of modules) m.start?.((name, stop) => ctx.hold(name, stop));
      office.start();
    },
  };
}

export type Box = ReturnType<typeof composeBox>;

/** The whole HTTP surface as one Elysia app (tests that need nothing else of the box). */
export function createApp(ctx: AppContext) {
  return composeBox(ctx).app;
}

export type App = ReturnType<typeof createApp>;
