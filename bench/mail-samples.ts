/**
 * The booking the mail benchmarks send about (`email-cost.ts`, `smtp-cost.ts`): one event type and
 * a confirmed video call in Prague, so both price the same message.
 */
import { DEFAULT_SETTINGS } from "../packages/server/src/domain/event-type.ts";
import type { EventTypeRecord } from "../packages/server/src/store/event-types.ts";
import type { ReservationRecord } from "../packages/server/src/store/reservations.ts";

/** The meeting's start: 2 December 2026, 09:00 UTC. */
export const SAMPLE_START = Date.UTC(2026, 11, 2, 9);

/** The event type booked; `theme` as an organizer who chose a colour has it. */
export const sampleEventType = (theme?: Record<string, unknown>): EventTypeRecord =>
  ({
    id: 1,
    hosts: [],
    settings: {
      ...DEFAULT_SETTINGS,
      title: "Intro call",
      description: "A first talk about your project.",
      timezone: "Europe/Prague",
      organizerEmail: "jana@example.test",
      hostName: "Jana Nováková",
      ...(theme ? { theme } : {}),
    },
  }) as unknown as EventTypeRecord;

/** A confirmed half-hour video call booked a day before, in the visitor's `locale`. */
export const sampleReservation = (locale: string): ReservationRecord =>
  ({
    uuid: crypto.randomUUID(),
    eventTypeId: 1,
    hostIds: [],
    status: "confirmed",
    startMs: SAMPLE_START,
    endMs: SAMPLE_START + 1_800_000,
    heldUntilMs: null,
    email: "ada@example.com",
    firstname: "Ada",
    lastname: "Lovelace",
    phone: "",
    timezone: "Europe/Prague",
    locale,
    location: { type: "video-meet", value: null },
    guests: [],
    customFields: [],
    meetLink: "https://meet.jit.si/booking-0123456789abcdef",
    sequence: 0,
    payment: null,
    confirmedAtMs: SAMPLE_START - 86_400_000,
    cancelledAtMs: null,
    createdAtMs: SAMPLE_START - 86_400_000,
    updatedAtMs: SAMPLE_START - 86_400_000,
  }) as unknown as ReservationRecord;
