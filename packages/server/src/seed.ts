import type { EventTypeCreate } from "@booking/wire";
import { EventTypeAdmin } from "./modules/event-types/organizer.ts";
import { HostAdmin } from "./modules/hosts/service.ts";
import type { Store } from "./store/store.ts";

/** One demo event type as created, with the tokens a visitor or organizer would use. */
export interface SeededEventType {
  id: number;
  title: string;
  token: string;
  overrideToken: string;
  /** The publishable token that pages and the element carry (public by design, unlike `token`). */
  linkToken: string;
  /** Name of its booking page, `/book/{slug}`. */
  slug: string | null;
  disabled: boolean;
  /** Names of its hosts, in order. */
  hosts: string[];
  assignment: "collective" | "round-robin";
}

/** The demo's two hosts: Alex (the default host, whose personal event types these are) and Sam. */
export const DEMO_HOSTS = {
  alex: { name: "Alex Demo", email: "alex@demo.example.com", timezone: "Europe/Prague", avatarUrl: null },
  sam: { name: "Sam Demo", email: "sam@demo.example.com", timezone: "Europe/Prague", avatarUrl: null },
} as const;

/** Sam's own hours, which Sam's part of the team event type uses: afternoons only. */
export const DEMO_SAM_SCHEDULE = { name: "Afternoons", availability: { weekly: weekdaysOf([{ start: "13:00", end: "18:00" }]), overrides: [] } };

/**
 * The demo's team event type: offered when Alex or Sam is free, each booking assigned to one free
 * host by round robin (equal priority, so the least recently booked). Alex's bookings of the
 * personal event types block Alex here too, and the other way round.
 */
export const DEMO_TEAM_EVENT_TYPE: EventTypeCreate = {
  title: "Team intro (round robin)",
  slug: "team-intro",
  description: "30 minutes with whichever of our two hosts, Alex or Sam, is free at the time you pick.",
  timezone: "Europe/Prague",
  durationMinutes: 30,
  slotIntervalMinutes: 30,
  minNoticeMinutes: 60,
  horizonDays: 60,
  availability: { weekly: weekdaysOf([{ start: "09:00", end: "17:00" }]), overrides: [] },
  locations: [{ type: "video-meet" }],
  calendarTitle: "Meet the team",
  theme: { mode: "light", borderRadius: "8px", colors: { primary: "#7c3aed" } },
  assignment: "round-robin",
};

function weekdaysOf(ranges: { start: string; end: string }[]) {
  return { monday: ranges, tuesday: ranges, wednesday: ranges, thursday: ranges, friday: ranges, saturday: [], sunday: [] };
}

const weekdays = weekdaysOf;

/** Uuids of the demo's custom fields. */
export const DEMO_FIELDS = {
  company: "6f1c2a3e-4b5d-4e6f-8a7b-9c0d1e2f3a4b",
  teamSize: "7a2d3b4f-5c6e-4f70-9b8c-0d1e2f3a4b5c",
  topic: "8b3e4c50-6d7f-4081-8c9d-1e2f3a4b5c6d",
} as const;

/** The demo organizer set-up: a free call with custom fields, a paid consultation, a retired workshop. */
export const DEMO_EVENT_TYPES: EventTypeCreate[] = [
  {
    title: "Intro call",
    slug: "intro-call",
    description: "A first 30-minute conversation about your project.",
    timezone: "Europe/Prague",
    durationMinutes: 30,
    slotIntervalMinutes: 30,
    minNoticeMinutes: 60,
    horizonDays: 60,
    availability: {
      weekly: weekdays([
        { start: "09:00", end: "12:00" },
        { start: "13:00", end: "17:00" },
      ]),
      overrides: [],
    },
    locations: [{ type: "video-meet" }, { type: "phone", value: null }, { type: "address", value: "Na Příkopě 1, Praha" }],
    customFields: [
      // Fixed uuids, so the getting-started guide's example request (docs/getting-started.md) works as printed.
      { uuid: DEMO_FIELDS.company, label: "Company", name: "company", type: "text", required: true },
      { uuid: DEMO_FIELDS.teamSize, label: "Team size", name: "team_size", type: "select", options: ["1-10", "11-50", "51+"], required: false },
      { uuid: DEMO_FIELDS.topic, label: "What would you like to discuss?", name: "topic", type: "textarea", required: false },
    ],
    calendarTitle: "Book an intro call",
    hostName: "Alex Demo",
    theme: { mode: "light", borderRadius: "8px", colors: { primary: "#2563eb" } },
  },
  {
    title: "Paid consultation",
    slug: "consulting",
    description: "One hour of focused advice, paid by card when booking.",
    timezone: "Europe/Prague",
    durationMinutes: 60,
    slotIntervalMinutes: 60,
    minNoticeMinutes: 240,
    holdMinutes: 15,
    availability: { weekly: weekdays([{ start: "10:00", end: "16:00" }]), overrides: [] },
    locations: [{ type: "video-meet" }],
    payment: { amount: 5000, currency: "eur", providerAccountId: "acct_1DemoConsulting" },
    theme: { mode: "dark", borderRadius: "12px", colors: { primary: "#22c55e" } },
  },
  {
    title: "Spring workshop (closed)",
    slug: "spring-workshop",
    description: "A group workshop that no longer takes bookings.",
    timezone: "Europe/Prague",
    durationMinutes: 120,
    slotIntervalMinutes: 120,
    seats: 12,
    availability: { weekly: weekdays([{ start: "09:00", end: "13:00" }]), overrides: [] },
    locations: [{ type: "address", value: "Karlova 5, Praha" }],
    disabled: true,
  },
];

/**
 * Creates the demo when the store has no event types: Alex's personal event types (Alex is the
 * default host), a second host, Sam, with a schedule of afternoons, and a round-robin team event type
 * of both; returns the event types it created (empty if none).
 */
export async function seedDemo(store: Store, now: () => number): Promise<SeededEventType[]> {
  if ((await store.eventTypes.count()) > 0) return [];
  const admin = new EventTypeAdmin(store, now);
  const hosts = new HostAdmin(store, now);
  const alex = await hosts.update((await store.hosts.defaultHost()).id, DEMO_HOSTS.alex);
  const sam = await hosts.create(DEMO_HOSTS.sam);
  const afternoons = await hosts.createSchedule(sam.id, DEMO_SAM_SCHEDULE);
  const team = { ...DEMO_TEAM_EVENT_TYPE, hosts: [{ hostId: alex.id }, { hostId: sam.id, scheduleId: afternoons.id }] };
  const created: SeededEventType[] = [];
  for (const input of [...DEMO_EVENT_TYPES, team]) {
    const et = await admin.create(input);
    created.push({
      id: et.id,
      title: et.title,
      token: et.token,
      overrideToken: et.overrideToken,
      linkToken: et.linkToken,
      slug: et.slug,
      disabled: et.disabled,
      hosts: et.hosts.map((h) => h.name),
      assignment: et.assignment,
    });
  }
  return created;
}
