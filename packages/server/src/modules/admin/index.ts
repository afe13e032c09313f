import { Elysia } from "elysia";
import type { AppContext } from "../../context.ts";
import type { Services } from "../../services.ts";
import { availabilityCheckRoutes } from "../availability-check/index.ts";
import { bookingOrganizerRoutes } from "../bookings/index.ts";
import { calendarOrganizerRoutes } from "../calendars/index.ts";
import { consoleSessionAdminRoutes } from "../console/index.ts";
import type { ConsoleAccess } from "../console/service.ts";
import { eventTypeOrganizerRoutes } from "../event-types/index.ts";
import { hostOrganizerRoutes } from "../hosts/index.ts";
import { timeOffOrganizerRoutes } from "../time-off/index.ts";
import { deliveryOrganizerRoutes } from "../outbox/index.ts";
import { adminGuard, hostRulesOf } from "./guard.ts";

/**
 * The organizer admin API under `/admin`: each feature's organizer routes, every one behind the
 * admin guard (`Authorization: Bearer $BOOKING_ADMIN_KEY`, or the organizer console's session cookie
 * whose changes must come from the console's own origin; see guard.ts). Not mounted at all without
 * a configured key (unless development signs the console in with one-time links instead), so
 * `/admin` is then an ordinary 404.
 */
export const adminRoutes = (ctx: AppContext, services: Services, access: ConsoleAccess) => {
  if (!ctx.config.adminKey && !ctx.config.consoleSignInLinks) return new Elysia();
  // Each route declares what a host's session may reach through it; the guard reads it from here.
  const guard = adminGuard(
    ctx,
    access,
    hostRulesOf(() => routes.routes),
  );
  const routes = new Elysia({ prefix: "/admin" })
    .use(eventTypeOrganizerRoutes(ctx, guard, services.eventTypeAdmin))
    .use(calendarOrganizerRoutes(ctx, guard, services.calendars))
    .use(deliveryOrganizerRoutes(guard, services.deliveries))
    .use(bookingOrganizerRoutes(ctx, guard, services.bookings, services.reservations, services.slots))
    .use(availabilityCheckRoutes(ctx, guard, services.availability))
    .use(consoleSessionAdminRoutes(guard, access))
    .use(hostOrganizerRoutes(ctx, guard, services.hosts, services.eventTypeAdmin, access))
    .use(timeOffOrganizerRoutes(guard, services.timeOff));
  return routes;
};
