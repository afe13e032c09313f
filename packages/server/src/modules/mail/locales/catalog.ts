import type { PLURAL_CATEGORIES } from "@booking/wire/languages";

/**
 * A language emails and invites are written in: one of the element's built-in languages, each with
 * the plural categories `Intl.PluralRules` names for it (one table for both, `@booking/wire/languages`).
 */
export type MailLanguage = keyof typeof PLURAL_CATEGORIES;

/** The forms of one counted text in a language: exactly its plural categories; `{count}` is the number. */
export type MailPlural<L extends MailLanguage> = { [C in (typeof PLURAL_CATEGORIES)[L][number]]: string };

/** Texts with a count. */
export type MailPluralKey = "minutes" | "hours" | "days";

/**
 * Every text of the emails and invites in one language; `{name}` placeholders are filled when a
 * message is rendered. Written as a typed object literal, a catalog missing a text or a plural form
 * its language needs fails typecheck.
 */
export type MailCatalog<L extends MailLanguage = MailLanguage> = {
  /** Subject's first word, by what happened. */
  confirmed: string;
  moved: string;
  cancelled: string;
  reminder: string;
  /** Greeting with and without the reader's first name. */
  hello: string;
  helloAnonymous: string;
  /** The visitor's opening line. */
  visitorConfirmed: string;
  visitorMoved: string;
  visitorCancelled: string;
  /** A guest's opening line; `{who}` is the visitor who invited them. */
  guestConfirmed: string;
  guestMoved: string;
  guestCancelled: string;
  /** The organizer's opening line; `{who}` is the visitor. */
  organizerConfirmed: string;
  organizerMoved: string;
  organizerCancelled: string;
  /** A reminder's opening line; `{duration}` is one of the counted texts. */
  startsIn: string;
  /** Labels of the details table. */
  what: string;
  when: string;
  before: string;
  where: string;
  host: string;
  guests: string;
  reason: string;
  phone: string;
  /** Buttons, and the same in the plain text part (followed by the link). */
  join: string;
  reschedule: string;
  cancel: string;
  /** The closing line about the attachment. */
  inviteAdds: string;
  inviteRemoves: string;
  organizerFile: string;
  /** A reminder's closing line, with and without the manage link. */
  changeHint: string;
  seeYou: string;
  /** An invite's title: `{title}` with `{name}`. */
  titleWith: string;
} & { [K in MailPluralKey]: MailPlural<L> };

/** The texts of a catalog without the counted ones, the same shape in every language. */
export type MailTexts = Omit<MailCatalog<"en">, MailPluralKey>;
