import type { EnglishCatalog } from "@booking/wire/i18n";

/**
 * English: the catalog every other language of the emails and invites is declared from
 * (`MailCatalog` in catalog.ts). `{name}` placeholders are filled when a message is rendered; a
 * counted text gives its plural forms, `{count}` is the number.
 */
const en = {
  /** Subject's first word, by what happened. */
  confirmed: "Confirmed",
  moved: "Moved",
  cancelled: "Cancelled",
  reminder: "Reminder",
  /** Greeting with and without the reader's first name. */
  hello: "Hello {name},",
  helloAnonymous: "Hello,",
  /** The visitor's opening line. */
  visitorConfirmed: "Your booking is confirmed.",
  visitorMoved: "Your booking has moved to a new time.",
  visitorCancelled: "Your booking is cancelled.",
  /** A guest's opening line; `{who}` is the visitor who invited them. */
  guestConfirmed: "{who} invited you to this meeting.",
  guestMoved: "{who} moved this meeting to a new time.",
  guestCancelled: "{who} cancelled this meeting.",
  /** The organizer's opening line; `{who}` is the visitor. */
  organizerConfirmed: "New booking by {who}.",
  organizerMoved: "{who} moved their booking.",
  organizerCancelled: "The booking of {who} is cancelled.",
  /** A reminder's opening line; `{duration}` is one of the counted texts. */
  startsIn: "Your booking starts in {duration}.",
  /** Labels of the details table. */
  what: "What",
  when: "When",
  before: "Before",
  where: "Where",
  host: "Host",
  guests: "Guests",
  reason: "Reason",
  phone: "Phone: {value}",
  /** Buttons, and the same in the plain text part (followed by the link). */
  join: "Join the meeting",
  reschedule: "Reschedule",
  cancel: "Cancel",
  /** The closing line about the attachment. */
  inviteAdds: "The attached invite adds it to your calendar.",
  inviteRemoves: "The attached invite removes it from your calendar.",
  organizerFile: "The attached file puts the booking in your calendar; it is a copy for you, not an invitation.",
  /** A reminder's closing line, with and without the manage link. */
  changeHint: "Need another time? Reschedule or cancel with the buttons above.",
  seeYou: "See you then.",
  /** An invite's title: `{title}` with `{name}`. */
  titleWith: "{title} with {name}",
  /** Durations, counted. */
  minutes: { one: "{count} minute", other: "{count} minutes" },
  hours: { one: "{count} hour", other: "{count} hours" },
  days: { one: "{count} day", other: "{count} days" },
  /** A series (recurring bookings): the label of its row, how often, and how many times. */
  repeats: "Repeats",
  everyWeek: "Every week",
  everyTwoWeeks: "Every two weeks",
  /** How many occurrences a series has, counted. */
  times: { one: "{count} time", other: "{count} times" },
} satisfies EnglishCatalog;
export default en;
