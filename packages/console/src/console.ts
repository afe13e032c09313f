// The console's entry: defines its elements. Loaded only by /console.
import { BookingConsole } from "./booking-console.ts";
import { SignInPage } from "./pages/sign-in.ts";
import { BookingsPage } from "./pages/bookings.ts";
import { EventTypesPage } from "./pages/event-types.ts";
import { EventTypeForm } from "./pages/event-type-form.ts";
import { AvailabilityPage } from "./pages/availability.ts";
import { CalendarsPage } from "./pages/calendars.ts";
import { DeliveriesPage } from "./pages/deliveries.ts";
import { EmbedPage } from "./pages/embed.ts";
import { SessionsPage } from "./pages/sessions.ts";
import { HostsPage } from "./pages/hosts.ts";
import { TimeOffSection } from "./pages/time-off.ts";
import { CalendarPreview } from "./preview.ts";
import { AvailabilityCheckDialog } from "./availability-check.ts";

const ELEMENTS: [string, CustomElementConstructor][] = [
  ["booking-console", BookingConsole],
  ["console-sign-in", SignInPage],
  ["console-bookings", BookingsPage],
  ["console-event-types", EventTypesPage],
  ["console-event-type-form", EventTypeForm],
  ["console-availability", AvailabilityPage],
  ["console-calendars", CalendarsPage],
  ["console-deliveries", DeliveriesPage],
  ["console-embed", EmbedPage],
  ["console-sessions", SessionsPage],
  ["console-hosts", HostsPage],
  ["console-time-off", TimeOffSection],
  ["console-calendar-preview", CalendarPreview],
  ["console-availability-check", AvailabilityCheckDialog],
];
for (const [name, element] of ELEMENTS) if (!customElements.get(name)) customElements.define(name, element);
