/** What the console reads of the admin API's answers (the server's views; only the fields used here). */
export interface EventTypeView {
  id: number;
  title: string;
  slug: string | null;
  linkToken: string;
  disabled: boolean;
  timezone: string;
  /** Whose time it books, in order (a one-person install: the default host). */
  hosts: { hostId: number; name: string }[];
  [setting: string]: unknown;
}

export interface BookingView {
  uuid: string;
  eventTypeId: number;
  eventTypeTitle: string;
  status: string;
  start: string;
  end: string;
  startIso8601: string;
  endIso8601: string;
  email: string;
  firstname: string;
  lastname: string;
  phone: string;
  location: { type: string; value: string | null } | null;
  customFields: { uuid?: string; name?: string; value: unknown }[];
  payment: { status: string; amount: number; currency: string; paymentIntentId: string; refundId: string | null } | null;
  manageUrl: string | null;
  cancelReason: string | null;
  deliveries?: DeliveryView[];
}

export interface DeliveryView {
  id: number;
  channel: string;
  kind: string;
  reservationUuid: string;
  url: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  attemptLog: { attempt: number; at: string; statusCode: number | null; error: string | null }[];
}

export interface SlotView {
  date: string;
  start: string;
  end: string;
  startIso8601: string;
  readable_start: string;
}

/** The event types, for pickers on every page. */
export async function eventTypes(api: <T>(m: string, p: string) => Promise<T>): Promise<EventTypeView[]> {
  return api<EventTypeView[]>("GET", "/admin/event-types");
}

/** A host: whose time event types book. */
export interface HostView {
  id: number;
  name: string;
  email: string | null;
  timezone: string;
  isDefault: boolean;
  eventTypeIds: number[];
  /** The host's private feed of their own confirmed bookings. */
  feedUrl: string;
}

type Range = { start: string; end: string };
/** Weekly hours and dates that differ: an event type's own hours, or a schedule's. */
/** The keys of the weekly hours, in the order the week is shown (the texts' `dayNames` name them). */
export const WEEKDAYS: readonly string[] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

export type Availability = { weekly: Record<string, Range[]>; overrides: { date: string; ranges: Range[] }[] };

/** A host's named hours, which the host's event types may share. */
export interface ScheduleView {
  id: number;
  hostId: number;
  name: string;
  timezone: string;
  availability: Availability;
  eventTypeIds: number[];
}

/** The hosts (a host's session: its own only). */
export async function hosts(api: <T>(m: string, p: string) => Promise<T>): Promise<HostView[]> {
  return api<HostView[]>("GET", "/admin/hosts");
}
