import { api } from "./api.ts";

// What the console reads of the admin API's answers: the wire's shapes, the same the server answers with.
export type {
  AdminBookingDetail,
  AdminBookingView,
  Availability,
  BusySourceView,
  DeliveryView,
  EventTypeView,
  HostView,
  ScheduleView,
  SessionView,
  TimeSlot,
  WritableCalendar,
} from "@booking/wire";

/** The event types, for pickers on every page. */
export const eventTypes = () => api("GET /admin/event-types");

/** The hosts (a host's session: its own only). */
export const hosts = () => api("GET /admin/hosts");
