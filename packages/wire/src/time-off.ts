import { Type, type Static } from "@sinclair/typebox";

/** Longest note a time off carries: a line or two the booking page shows. */
export const TIME_OFF_NOTE_MAX_LENGTH = 500;

const timeOffFields = {
  startDate: Type.String({ description: "First day away, YYYY-MM-DD, a whole day in the host's zone (with `endDate`; instead of `start`/`end`)." }),
  endDate: Type.String({ description: "Last day away (inclusive), YYYY-MM-DD in the host's zone." }),
  start: Type.String({ description: "Start of a time range away, ISO 8601 with an offset (with `end`; instead of `startDate`/`endDate`)." }),
  end: Type.String({ description: "End of the range (exclusive), ISO 8601 with an offset; after `start`." }),
  note: Type.Union([Type.String({ maxLength: TIME_OFF_NOTE_MAX_LENGTH }), Type.Null()], {
    description: "Shown on the host's personal booking pages while they are away; null for none.",
  }),
  colleagueHostId: Type.Union([Type.Integer(), Type.Null()], {
    description: "Another host who takes the host's personal bookings meanwhile: their booking pages offer the colleague's times. Null: nobody.",
  }),
};

/** Body of `POST /admin/hosts/{hostId}/time-off`: whole days (`startDate`, `endDate`) or a range (`start`, `end`). */
export const TimeOffCreate = Type.Partial(Type.Object(timeOffFields), { additionalProperties: false });
export type TimeOffCreate = Static<typeof TimeOffCreate>;

/** Body of `PATCH /admin/hosts/{hostId}/time-off/{timeOffId}`: any fields; days or a range replace the time whole. */
export const TimeOffPatch = Type.Partial(Type.Object(timeOffFields), { additionalProperties: false });
export type TimeOffPatch = Static<typeof TimeOffPatch>;

/** A host's time off as the admin API shows it. */
export const TimeOffView = Type.Object({
  id: Type.Integer(),
  hostId: Type.Integer(),
  start: Type.String({ format: "date-time", description: "First instant away, UTC." }),
  end: Type.String({ format: "date-time", description: "First instant back, UTC." }),
  startDate: Type.Union([Type.String({ format: "date" }), Type.Null()], { description: "First whole day away in the host's zone; null for a time range." }),
  endDate: Type.Union([Type.String({ format: "date" }), Type.Null()], { description: "Last whole day away (inclusive); null for a time range." }),
  note: Type.Union([Type.String(), Type.Null()]),
  colleagueHostId: Type.Union([Type.Integer(), Type.Null()]),
  colleagueName: Type.Union([Type.String(), Type.Null()], { description: "The colleague's name, for lists." }),
  createdAt: Type.String({ format: "date-time" }),
  updatedAt: Type.String({ format: "date-time" }),
});
export type TimeOffView = Static<typeof TimeOffView>;

/**
 * A personal event type's host away within the booking horizon, as the booking calendar's notice
 * shows it ("Alex is away until 12 May; book with Sam"): `EventTypeConfiguration.away`.
 */
export const AwayNotice = Type.Object({
  hostName: Type.String({ description: "The away host's name." }),
  start: Type.String({ format: "date-time", description: "First instant away, UTC." }),
  end: Type.String({ format: "date-time", description: "First instant back, UTC." }),
  lastDay: Type.String({ format: "date", description: "Last day away (inclusive) in the event type's zone: the date the notice names." }),
  note: Type.Union([Type.String(), Type.Null()]),
  colleagueName: Type.Union([Type.String(), Type.Null()], {
    description: "The colleague whose times the page offers meanwhile, and whom a booking then goes to; null: no times while away.",
  }),
});
export type AwayNotice = Static<typeof AwayNotice>;
