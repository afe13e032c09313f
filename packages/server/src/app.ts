import { Elysia, type AnyElysia } from "elysia";
import { Type } from "@sinclair/typebox";
import { answers, envelope } from "./http/answers.ts";
import { pageDoc } from "./http/route-doc.ts";
import { systemClock, type Clock } from "./clock.ts";
import { DEFAULT_CONFIG, type ServerConfig } from "./config.ts";
import type { AppContext, LogEntry } from "./context.ts";
import { httpContract, lastResortAnswer } from "./http/contract.ts";
import { answerChecker } from "./http/answer-check.ts";
import { publicOrigin } from "./lib/links.ts";
import { stderrLog } from "./lib/log.ts";
import { ok } from "./http/envelope.ts";
import { MemoryRateLimiter, type RateLimiter } from "./store/rate-limiter.ts";
import { adminRoutes } from "./modules/admin/index.ts";
import { consoleSessionOf } from "./modules/console/session.ts";
import { docsRoutes } from "./modules/docs/index.ts";
import { bookingPageRoutes } from "./modules/booking-pages/index.ts";
import { embedRoutes } from "./modules/embed/index.ts";
import { feedRoutes } from "./modules/feeds/index.ts";
import { CalendarScriptFile } from "./modules/embed/service.ts";
import { configurationRoutes, initRoutes } from "./modules/event-types/index.ts";
import { mcpRoutes } from "./modules/mcp/index.ts";
import { consoleRoutes } from "./modules/console/index.ts";
import { ConsoleAccess } from "./modules/console/service.ts";
import type { ConsoleBundle } from "./modules/console/page.ts";
import { timeSlotRoutes } from "./modules/time-slots/index.ts";
import { timezoneRoutes } from "./modules/timezones/index.ts";
import { reservationRoutes } from "./modules/reservations/index.ts";
import { seriesRoutes } from "./modules/reservations/series-routes.ts";
import { STRIPE_WEBHOOK_PATH, stripeWebhookRoutes } from "./modules/payments/index.ts";
import { createServices, type CalendarDependencies } from "./services.ts";
import type Stripe from "stripe";
import type { BusySource } from "./domain/busy.ts";
import type { Store } from "./store/store.ts";

/** What an app is built from; everything but the store has a default. */
export interface AppDependencies {
  store: Store;
  clock?: Clock;
  config?: Partial<ServerConfig>;
  rateLimiter?: RateLimiter;
  log?: (entry: LogEntry) => void;
  /** Stripe client; by default built from `config.stripe` (none without a secret key). */
  stripe?: Stripe | null;
  /** Where else organizers are busy besides reservations; none by default (domain/busy.ts). */
  busy?: BusySource;
  /** How the organizer's calendars are read and fetched; the real expansion and the guarded fetch by default. */
  calendars?: CalendarDependencies;
  /** File of the calendar's script-tag build; by default the one `@booking/calendar` builds. */
  calendarScriptPath?: string;
  /** The organizer console's sessions; `npm start` passes the one it issued the printed sign-in link with. */
  consoleAccess?: ConsoleAccess;
  /** The console's script; by default the one `@booking/console` builds. */
  consoleBundle?: ConsoleBundle;
}

/**
 * Builds the whole HTTP application from its dependencies. Tests build a fresh one per test and
 * call `app.handle(request)`; `npm start` builds one on the configured SQLite file and listens.
 */
export function createApp(deps: AppDependencies) {
  const config: ServerConfig = { ...DEFAULT_CONFIG, ...deps.config };
  const ctx: AppContext = {
    store: deps.store,
    clock: deps.clock ?? systemClock,
    config,
    // A store that several instances share counts requests for all of them; else each process counts its own.
    rateLimiter: deps.rateLimiter ?? deps.store.rateLimiter ?? new MemoryRateLimiter(config.rateLimit.limit, config.rateLimit.windowSeconds),
    log: deps.log ?? stderrLog,
  };
  const services = createServices(ctx, deps.stripe, deps.busy, deps.calendars);
  // One reading of the element's script for the route that serves it and the pages that link it.
  const calendarScript = new CalendarScriptFile(deps.calendarScriptPath);
  const { slots, eventTypes, payments, reservations, series } = services;
  const consoleAccess =
    deps.consoleAccess ?? new ConsoleAccess(ctx.store, config.adminKey, () => ctx.clock.now(), { idleMs: config.consoleIdleSeconds * 1000 });

  const publicApi = <Prefix extends string>(prefix: Prefix) =>
    new Elysia({ prefix })
      .use(timezoneRoutes())
      .use(timeSlotRoutes(ctx, slots))
      .use(configurationRoutes(ctx, eventTypes))
      .use(initRoutes(ctx, eventTypes))
      .use(reservationRoutes(ctx, reservations, payments, series))
      .use(seriesRoutes(ctx, series));

  // The contract and the documents read the whole app's routes at their first request, once it is built;
  // the app is kept here rather than annotated, so that its type keeps every route (the console's client reads it).
  let whole: AnyElysia | undefined;
  const everyRoute = () => whole?.routes ?? [];
  // Bun's development mode answers an escaped error with an HTML page of source and file paths;
  // whatever escapes Elysia gets the spec's JSON 500 instead, in every environment.
  // The router finds the path from the first "/" after the scheme: by default it skips 11 characters,
  // assuming a host of at least four, so with `Host: z` it served /zz/admin/... as /admin/... .
  // Searching from the host's first character is right for every Host (the server speaks plain
  // HTTP; app.handle gets http:// URLs). The compiled router is the one that honours this.
  const typed = new Elysia({
    normalize: false,
    aot: true,
    handler: { standardHostname: false },
    serve: { development: false, error: () => lastResortAnswer(publicOrigin(config)) },
  })
    .use(httpContract(ctx, everyRoute, new Set([STRIPE_WEBHOOK_PATH]), async (context) => (await consoleSessionOf(ctx, consoleAccess, context))?.id ?? null))
    // A bare JSON route through the same contract: for load balancers, and the benchmark's baseline.
    .get("/health", () => ok({ status: "ok" as const }), {
      response: answers(envelope(Type.Object({ status: Type.Literal("ok") })), []),
      detail: pageDoc({
        operationId: "health",
        summary: "Health check",
        description: "A bare JSON answer through the same contract as every route: for load balancers, and the benchmarks' baseline.",
      }),
    })
    .use(publicApi(""));
  // The alias serves the public routes again under a configured prefix: a `string` to the type
  // checker, which would key every route of the app's type by any path. Its routes are left out of the type.
  typed.use(publicApi(config.aliasPrefix));
  const app = typed
    .use(stripeWebhookRoutes(payments, ctx.config))
    .use(docsRoutes(ctx, () => whole!))
    .use(embedRoutes(ctx, calendarScript))
    .use(bookingPageRoutes(ctx, calendarScript))
    .use(feedRoutes(ctx))
    .use(adminRoutes(ctx, services, consoleAccess))
    .use(consoleRoutes(ctx, consoleAccess, calendarScript, deps.consoleBundle))
    .use(mcpRoutes(ctx, services));
  whole = app;
  if (process.env.BOOKING_CHECK_ANSWERS === "1") checkEveryAnswer(app);
  return app;
}

/**
 * Under test (BOOKING_CHECK_ANSWERS=1), every answer of `app.handle` is checked against the response
 * its route declares, and one that does not match fails the request's test with the reason.
 */
function checkEveryAnswer(app: AnyElysia): void {
  const check = answerChecker(() => app.routes);
  const handle = app.handle.bind(app);
  app.handle = async (request: Request) => {
    const response = await handle(request);
    const problem = await check(request, response);
    if (problem) throw new Error(`Undeclared answer: ${problem}`);
    return response;
  };
}

/**
 * The type of the whole app, every route with its params, query, body and declared answers: the
 * organizer console's client is typed from it (`import type` only; no server code reaches the console).
 */
export type App = ReturnType<typeof createApp>;
