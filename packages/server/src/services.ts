import type Stripe from "stripe";
import type { AppContext } from "./context.ts";
import type { BusySource } from "./domain/busy.ts";
import { AvailabilityCheckService } from "./modules/availability-check/service.ts";
import { BookingAdmin } from "./modules/bookings/service.ts";
import { EventTypeService } from "./modules/event-types/service.ts";
import { EventTypeAdmin } from "./modules/event-types/organizer.ts";
import { DeliveryAdmin } from "./modules/outbox/service.ts";
import { PaymentService } from "./modules/payments/service.ts";
import { stripeClient, StripeProvider } from "./modules/payments/stripe.ts";
import { ReservationService } from "./modules/reservations/service.ts";
import { SeriesService } from "./modules/reservations/series.ts";
import { mailPolicy } from "./modules/mail/events.ts";
import { TimeSlotService } from "./modules/time-slots/service.ts";
import { CalendarAdmin } from "./modules/calendars/service.ts";
import { HostAdmin } from "./modules/hosts/service.ts";
import { TimeOffAdmin } from "./modules/time-off/service.ts";
import { CalendarSync, storeBusySource, type ExpandCalendar } from "./modules/calendars/sync.ts";
import { ExpansionWorkers } from "./modules/calendars/expansion.ts";
import type { CalendarFetch } from "./modules/calendars/fetch.ts";
import type { CalendarExpander } from "./modules/calendars/expansion.ts";

/** The services every channel goes through: the HTTP API, the admin API and the assistant server. */
export interface Services {
  slots: TimeSlotService;
  eventTypes: EventTypeService;
  payments: PaymentService;
  reservations: ReservationService;
  /** Recurring bookings: a series booked all or nothing, and ended from one of its occurrences. */
  series: SeriesService;
  /** The organizer's event types: settings, tokens and secrets. */
  eventTypeAdmin: EventTypeAdmin;
  /** The organizer's bookings: lists, the search across event types, one with its deliveries. */
  bookings: BookingAdmin;
  /** The organizer's view of the outbox: recent deliveries, and a retry now. */
  deliveries: DeliveryAdmin;
  /** The organizer's calendars: their sync (the background worker runs `calendarSync`) and management. */
  calendarSync: CalendarSync;
  calendars: CalendarAdmin;
  /** Hosts and their schedules (docs/hosts.md). */
  hosts: HostAdmin;
  /** "Why is this time not offered?": the slot page's steps, one start at a time. */
  availability: AvailabilityCheckService;
  /** Hosts' time off (docs/hosts.md). */
  timeOff: TimeOffAdmin;
}

/** How the calendar sync reads and fetches; the defaults are the real ones. */
export interface CalendarDependencies {
  /** How calendars are expanded: on worker threads by default (ExpansionWorkers). */
  expand?: ExpandCalendar | CalendarExpander;
  fetch?: CalendarFetch;
  /**
   * The sync the process's background worker runs, so that the organizer's "sync now" joins a sync
   * of the same source under way there instead of running a second one; by default one of its own.
   */
  sync?: CalendarSync;
  /** How long the admin API's "sync now" waits for the sync before answering 202 (still syncing); SYNC_ANSWER_MS by default. */
  syncAnswerMs?: number;
}

/**
 * Builds the services on one store, clock and configuration. Every channel builds them here, so a
 * rule (notice, seats, webhooks through the outbox) holds whichever way a change arrives.
 * `stripe` defaults to a client built from `config.stripe` (none without a secret key); the payment
 * rules see it only through the PaymentProvider port. `busy` says when else the organizer is busy:
 * by default the busy intervals the store keeps from the organizer's calendars.
 */
export function createServices(
  ctx: AppContext,
  stripe?: Stripe | null,
  busy: BusySource = storeBusySource(ctx.store),
  calendarDeps: CalendarDependencies = {},
): Services {
  const now = () => ctx.clock.now();
  const slots = new TimeSlotService(ctx.store, busy);
  const calendarSync =
    calendarDeps.sync ?? new CalendarSync(ctx.store, now, ctx.config.calendars, calendarDeps.expand ?? new ExpansionWorkers(), ctx.log, calendarDeps.fetch);
  const client = stripe === undefined ? stripeClient(ctx.config.stripe) : stripe;
  const payments = new PaymentService(
    ctx.store,
    client ? new StripeProvider(client) : null,
    ctx.config.stripe.webhookSecret,
    now,
    ctx.log,
    mailPolicy(ctx.config),
  );
  const reservations = new ReservationService(ctx.store, payments, ctx.config, now, ctx.log, busy);
  return {
    slots,
    eventTypes: new EventTypeService(ctx.store, slots, ctx.config),
    payments,
    reservations,
    series: new SeriesService(ctx.store, reservations, ctx.config, now, busy),
    eventTypeAdmin: new EventTypeAdmin(ctx.store, now, { allowPrivateWebhooks: ctx.config.webhooks.allowPrivateAddresses }),
    bookings: new BookingAdmin(ctx.store, now),
    deliveries: new DeliveryAdmin(ctx.store, now),
    calendarSync,
    hosts: new HostAdmin(ctx.store, now),
    availability: new AvailabilityCheckService(ctx.store, slots, now),
    timeOff: new TimeOffAdmin(ctx.store, now),
    calendars: new CalendarAdmin(
      ctx.store,
      calendarSync,
      now,
      ctx.config.calendars.allowPrivateAddresses,
      calendarDeps.fetch,
      ctx.log,
      calendarDeps.syncAnswerMs,
    ),
  };
}
