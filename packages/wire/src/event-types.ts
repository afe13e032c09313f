import { oneOf } from "./literals.ts";
import { AwayNotice } from "./time-off.ts";
import { RecurrenceField } from "./recurrence.ts";
import { Type, type Static } from "@sinclair/typebox";
import { LIMITS } from "./limits.ts";
import { THEME_MODES, WEEK_STARTS } from "./constants.ts";

/** A location chosen by a visitor or enabled by the organizer. */
export const Location = Type.Object({
  type: Type.String({ maxLength: LIMITS.textMaxLength }),
  value: Type.Optional(Type.Union([Type.String({ maxLength: LIMITS.textMaxLength }), Type.Null()])),
});
export type Location = Static<typeof Location>;

/** A custom field's name: letters, digits and underscores, starting with a letter. */
export const FIELD_NAME_PATTERN = "^[A-Za-z][A-Za-z0-9_]{0,63}$";

const conditionField = Type.String({ pattern: FIELD_NAME_PATTERN, description: "The `name` of an earlier field of the same event type." });

/**
 * When a custom field is shown: only while another, earlier field's answer meets one condition.
 * `equals`: a select's answer is one of the values (a multiselect: any chosen option is); `checked`:
 * a checkbox is ticked; `notEmpty`: the field has an answer. A field that is not shown is neither
 * required nor stored, and a value sent for it is refused (`hidden_field`). The rule is
 * `visibleFieldNames` of `@booking/wire/visibility`, shared by the element and the server.
 */
export const ShowIf = Type.Union(
  [
    Type.Object(
      {
        field: conditionField,
        equals: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
          minItems: 1,
          maxItems: 100,
          description: "Options of the select or multiselect field named by `field`.",
        }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      { field: conditionField, checked: Type.Literal(true, { description: "Shown while the checkbox named by `field` is ticked." }) },
      { additionalProperties: false },
    ),
    Type.Object(
      { field: conditionField, notEmpty: Type.Literal(true, { description: "Shown while the field named by `field` has an answer." }) },
      { additionalProperties: false },
    ),
  ],
  { description: "Show this field only while an earlier field's answer meets the condition; absent: always shown." },
);
export type ShowIf = Static<typeof ShowIf>;

/** A custom field as init returns it. `options` is present for select kinds. */
export const CustomField = Type.Object({
  uuid: Type.String(),
  label: Type.String(),
  name: Type.String(),
  mergeTag: Type.String({ description: "Upper-case tag form of `name`, e.g. COMPANY_SIZE." }),
  type: Type.String(),
  order: Type.Integer(),
  required: Type.Boolean(),
  options: Type.Optional(Type.Array(Type.String())),
  placeholder: Type.Optional(Type.String()),
  showIf: Type.Optional(ShowIf),
});
export type CustomField = Static<typeof CustomField>;

/** A custom field answer sent by a visitor. */
export const CustomFieldValue = Type.Object({
  uuid: Type.String(),
  value: Type.Optional(Type.Unknown()),
});
export type CustomFieldValue = Static<typeof CustomFieldValue>;

/** Payment settings as the configuration exposes them (null for free event types). */
export const PaymentConfiguration = Type.Object({
  amount: Type.Integer({ description: "Smallest currency unit." }),
  currency: Type.String(),
  provider: Type.Literal("stripe"),
  publishableKey: Type.Union([Type.String(), Type.Null()]),
  providerAccountId: Type.String(),
  stripeJsUrl: Type.Optional(
    Type.String({
      description:
        "Where the element loads Stripe.js from when it is not Stripe's own (https://js.stripe.com): outside production, the server's Stripe.js stand-in for its local Stripe stand-in. Absent when payments go to Stripe.",
    }),
  ),
});
export type PaymentConfiguration = Static<typeof PaymentConfiguration>;

/** A BCP 47 language tag as organizer texts are keyed by: `de`, `pt-BR`, `zh-Hant`. */
export const LANGUAGE_TAG_PATTERN = "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$";

/** Most languages one event type's organizer texts are given in (besides its own texts). */
export const MAX_TRANSLATIONS = 30;

/**
 * The organizer's texts in one more language. Every key is optional: what is missing falls back to
 * the event type's own text (`title`, `description`, ...). Custom fields are named by their `name`;
 * a field's `options` are its choices' labels in this language, in the field's order (the answer a
 * visitor sends is still the option as the event type gives it). `locations` label the places by
 * type; `texts` override UI texts like `locale.texts`.
 */
export const OrganizerTexts = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
    calendarTitle: Type.Optional(Type.String({ maxLength: 500 })),
    customFields: Type.Optional(
      Type.Record(
        Type.String({ pattern: "^[A-Za-z][A-Za-z0-9_]{0,63}$" }),
        Type.Object(
          {
            label: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
            placeholder: Type.Optional(Type.String({ maxLength: 500 })),
            options: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 100 })),
          },
          { additionalProperties: false },
        ),
        { additionalProperties: false },
      ),
    ),
    locations: Type.Optional(
      Type.Record(Type.String({ pattern: "^[a-z-]{1,32}$" }), Type.String({ minLength: 1, maxLength: 200 }), { additionalProperties: false }),
    ),
    texts: Type.Optional(
      Type.Record(Type.String({ pattern: "^[A-Za-z][A-Za-z0-9_.-]{0,99}$" }), Type.String({ maxLength: 500 }), { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type OrganizerTexts = Static<typeof OrganizerTexts>;

/**
 * The organizer's texts per language, by BCP 47 tag: `{ "de": { "title": "Kennenlerngespräch" } }`.
 * The element picks one like its UI language (the `locale` attribute, `locale.preset`, the visitor's
 * browser languages; a tag matches exactly or by its base language) and falls back to the event
 * type's own texts.
 */
export const Translations = Type.Record(Type.String({ pattern: LANGUAGE_TAG_PATTERN }), OrganizerTexts, {
  additionalProperties: false,
  maxProperties: MAX_TRANSLATIONS,
});
export type Translations = Static<typeof Translations>;

/** A place the event type offers, as the configuration shows it: a `label` when the organizer named it. */
export const ConfiguredLocation = Type.Object({
  type: Type.String({ maxLength: LIMITS.textMaxLength }),
  value: Type.Optional(Type.Union([Type.String({ maxLength: LIMITS.textMaxLength }), Type.Null()])),
  label: Type.Optional(
    Type.String({
      description:
        "The organizer's name for this place (its translations are in `translations.<tag>.locations`); absent: the element's own words for the type.",
    }),
  ),
});
export type ConfiguredLocation = Static<typeof ConfiguredLocation>;

/** EventTypeConfiguration of the spec with the additional keys of decisions.md. */
export const EventTypeConfiguration = Type.Object({
  min: Type.Integer({ description: "First bookable day, days from today in the event type's zone." }),
  max: Type.Integer({ description: "Last bookable day, days from today (booking horizon)." }),
  closestBookableDay: Type.Integer({ description: "Days from today to the first day with a free slot; -1 when none." }),
  locale: Type.Object({
    preset: Type.String({
      description:
        "BCP 47 tag of the calendar's language (texts and dates); empty (the default of new event types): the visitor's browser languages, then English.",
    }),
    startDayOfWeek: oneOf(WEEK_STARTS),
    texts: Type.Record(Type.String(), Type.String(), { description: "Overrides of the element's UI texts by key; they win over its built-in languages." }),
  }),
  theme: Type.Object({
    mode: oneOf(THEME_MODES),
    borderRadius: Type.String(),
    colors: Type.Record(Type.String(), Type.String()),
  }),
  profileImage: Type.String({ description: "Image URL, empty string when none." }),
  externalBooking: Type.Boolean(),
  compact: Type.Boolean(),
  calendarTitle: Type.Union([Type.String(), Type.Null()]),
  hostName: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: "The organizer's name shown beside profileImage and on the confirmation; null when not set." }),
  ),
  title: Type.String(),
  description: Type.String(),
  durationMinutes: Type.Integer(),
  timezone: Type.String(),
  seats: Type.Integer(),
  holdMinutes: Type.Integer(),
  locations: Type.Array(ConfiguredLocation),
  translations: Type.Optional(Translations),
  payment: Type.Union([PaymentConfiguration, Type.Null()]),
  recurrence: Type.Optional(RecurrenceField),
  bookingUrl: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: "Absolute URL of the event type's booking page, /book/{slug}; null when it has no slug." }),
  ),
  rescheduleNoticeMinutes: Type.Optional(
    Type.Integer({ minimum: 0, description: "A visitor may move a booking online until this many minutes before its start; later, only the organizer can." }),
  ),
  cancelNoticeMinutes: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: "A visitor may cancel a confirmed booking online until this many minutes before its start; later, only the organizer can.",
    }),
  ),
  contact: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description:
        "How to reach the organizer when a change is no longer possible online: the event type's contact (an email address, an http(s) address or a line of text), else its organizer email, else the email of its first host with one; null when there is none.",
    }),
  ),
  away: Type.Optional(
    Type.Array(AwayNotice, {
      description:
        "A personal event type's host away between now and the booking horizon, earliest first (docs/hosts.md, time off): the calendar shows a notice naming the colleague who takes the bookings meanwhile, or the note. Absent when the host is not away.",
    }),
  ),
  emailConfirmation: Type.Optional(
    Type.Boolean({
      description:
        "True when the visitor is emailed a confirmation with a calendar invite on booking, rescheduling and cancelling (the server sends mail); false when nobody will be emailed.",
    }),
  ),
});
export type EventTypeConfiguration = Static<typeof EventTypeConfiguration>;

/** Body of `POST /event-types/init`. */
export const InitBody = Type.Object({
  reservationUuid: Type.Optional(Type.String({ format: "uuid" })),
});
export type InitBody = Static<typeof InitBody>;

/** The reservation init returns in reschedule mode. */
export const Reservation = Type.Object({
  uuid: Type.String({ format: "uuid" }),
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  status: Type.String({ description: "held, confirmed, expired or cancelled." }),
  start: Type.String({ format: "date-time" }),
  end: Type.String({ format: "date-time" }),
  location: Type.Union([Location, Type.Null()]),
  seriesId: Type.Optional(
    Type.Union([Type.String({ format: "uuid" }), Type.Null()], {
      description: "The series the reservation is an occurrence of: the manage page then offers to end the series from it on.",
    }),
  ),
});
export type Reservation = Static<typeof Reservation>;

/** Data of `POST /event-types/init`. */
export const InitData = Type.Object({
  disabled: Type.Boolean(),
  configuration: EventTypeConfiguration,
  customFields: Type.Array(CustomField),
  reservation: Type.Optional(Reservation),
});
export type InitData = Static<typeof InitData>;
