import ICAL from "ical.js";
import { afterEach, describe, expect, it } from "vitest";
import type { EventTypeCreate } from "@booking/wire";
import { LANGUAGES } from "../../booking-calendar/src/i18n/catalog.ts";
import { EmailWorker } from "../src/modules/mail/deliverer.ts";
import { counted, mailLocale } from "../src/modules/mail/language.ts";
import { MAIL_CATALOGS } from "../src/modules/mail/locales/index.ts";
import { ReminderWorker } from "../src/modules/mail/reminder-worker.ts";
import { textOn } from "../src/modules/mail/template.ts";
import { startSmtp as startSmtpServer, type Received, type Smtp } from "./smtp.ts";
import { dataOf, setup } from "./utils.ts";

// Emails and invites in the language and clock the visitor booked in, sent to a real SMTP server
// (test/smtp.ts) and read as a mail client would: `mailparser` for the message, `ical.js` for the
// invite. The clock of setup() starts on Monday 2026-11-23T07:00:00Z, 08:00 in Prague.

/** Tuesday 2026-11-24 09:00-09:30 Prague = 08:00Z. */
const TUE_0900 = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
/** Monday 2026-11-30 14:00-14:30 Prague = 13:00Z: a week ahead, so every reminder offset is still to come. */
const MON_1400 = { start: "2026-11-30T14:00:00+01:00", end: "2026-11-30T14:30:00+01:00" };
const MON_1400_MS = Date.parse("2026-11-30T13:00:00Z");
const FROM = "Bookings <bookings@example.test>";
const ORGANIZER = "jana@example.test";
const HOST = "Jana Nováková";
const GUEST = "guest@example.com";
const BRAND = "#0f766e";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function world(settings: Partial<EventTypeCreate> = {}) {
  const smtp: Smtp = await startSmtpServer();
  cleanups.push(() => smtp.stop());
  const mail = { smtpUrl: smtp.url, from: FROM };
  const env = await setup({ config: { rateLimit: { limit: 100_000, windowSeconds: 60 }, mail } });
  const created = await env.admin("POST", "/admin/event-types", {
    title: "Intro call",
    timezone: "Europe/Prague",
    slug: "intro",
    rescheduleNoticeMinutes: 0,
    cancelNoticeMinutes: 0,
    organizerEmail: ORGANIZER,
    hostName: HOST,
    theme: { colors: { primary: BRAND } },
    reminderMinutes: [],
    ...settings,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const token = created.body.data.token as string;
  const eventTypeId = created.body.data.id as number;
  const emails = new EmailWorker(env.store, env.clock, { mail }, (e) => env.logs.push(e));
  const reminders = new ReminderWorker(env.store, env.clock, { mail }, (e) => env.logs.push(e));
  const drain = async (worker: { runOnce(): Promise<number> }) => {
    for (let pass = 0; pass < 50; pass++) if ((await worker.runOnce()) === 0) return;
    throw new Error("the worker never went idle");
  };
  return {
    smtp,
    env,
    /** The stored reservation. */
    stored: (uuid: string) => env.store.reservations.byUuid(eventTypeId, uuid),
    book: async (body: Record<string, unknown>) => dataOf(await env.call("POST", "/reservations", { token, body })),
    call: (method: string, path: string, body?: unknown) => env.call(method, path, { token, body }),
    send: () => drain(emails),
    remind: () => drain(reminders),
  };
}

/** The calendar part of a message as a client reads it: the part's method and the parsed calendar's. */
function calendarOf(m: Received) {
  const part = m.mail.attachments.find((a) => a.contentType === "text/calendar");
  expect(part, `no calendar in "${m.mail.subject}"`).toBeDefined();
  const type = part!.headers.get("content-type") as { params: Record<string, string> };
  const calendar = new ICAL.Component(ICAL.parse(part!.content.toString("utf8")));
  const event = calendar.getFirstSubcomponent("vevent")!;
  const organizer = event.getFirstProperty("organizer")!;
  return {
    partMethod: type.params.method,
    method: calendar.getFirstPropertyValue("method"),
    uid: String(event.getFirstPropertyValue("uid")),
    summary: String(event.getFirstPropertyValue("summary")),
    description: String(event.getFirstPropertyValue("description") ?? ""),
    organizer: String(organizer.getFirstValue()),
    organizerName: organizer.getParameter("cn"),
    attendees: event.getAllProperties("attendee").map((p) => String(p.getFirstValue())),
    filename: part!.filename,
    /** Sent as the message's text/calendar alternative (an invitation) or as a file attached to it. */
    disposition: part!.contentDisposition ?? null,
  };
}

/**
 * Common rules of email clients (Gmail, Outlook, Apple Mail) for HTML that renders everywhere:
 * layout by tables, every style inline (clients drop `<style>` or rewrite it: the one allowed is
 * the head's dark colours, which only add to the inline ones), nothing fetched from elsewhere
 * (images, fonts, style sheets), alt texts, at most 600 px wide, the color-scheme metas for dark
 * mode, and links behind words rather than written out. Answers what is broken.
 */
function emailHtmlProblems(html: string): string[] {
  const problems: string[] = [];
  const has = (re: RegExp, what: string) => re.test(html) && problems.push(what);
  const styles = html.match(/<style[\s>][\s\S]*?<\/style>/gi) ?? [];
  if (styles.length > 1) problems.push("more than one <style> element");
  for (const style of styles) {
    if (!/^<style>@media \(prefers-color-scheme: dark\)\{[^{}]*(\{[^{}]*\}[^{}]*)*\}<\/style>$/.test(style))
      problems.push(`a <style> beyond dark colours: ${style}`);
    if (!/<head>[\s\S]*<style>[\s\S]*<\/head>/.test(html)) problems.push("a <style> outside the head");
  }
  has(/<link[\s>]/i, "a <link> element");
  has(/<script[\s>]/i, "a script");
  for (const tag of html.match(/<[a-z]+\s[^>]*\sclass=[^>]*>/gi) ?? [])
    if (!/\sstyle="/.test(tag)) problems.push(`a class without inline styles (styles must be inline): ${tag}`);
  has(/<div[\s>]/i, "a <div> (layout must be tables)");
  has(/display\s*:\s*(flex|grid)|position\s*:|float\s*:/i, "flex, grid, float or positioned layout");
  has(/@import|@font-face|url\(/i, "an external style, font or background");
  has(/<(img|video|iframe|object|embed)[^>]*\ssrc\s*=\s*["']?(https?:|\/\/)/i, "an external asset");
  for (const img of html.match(/<img[^>]*>/gi) ?? []) if (!/\salt=/i.test(img)) problems.push(`an image without alt: ${img}`);
  if (!/<table[^>]*role="presentation"/i.test(html)) problems.push("no layout table");
  for (const [, w] of html.matchAll(/\swidth="(\d+)"/gi)) if (Number(w) > 600) problems.push(`a width of ${w}`);
  for (const [, w] of html.matchAll(/(?:^|[;"\s])(?:max-)?width\s*:\s*(\d+)px/gi)) if (Number(w) > 600) problems.push(`a width of ${w}px`);
  if (!/<meta name="color-scheme" content="light dark">/.test(html)) problems.push("no color-scheme meta");
  if (!/<html lang="[a-z]{2}">/.test(html)) problems.push("no language");
  const visible = html.replace(/<head>[\s\S]*<\/head>/i, "").replace(/<[^>]+>/g, " ");
  if (/https?:\/\//.test(visible)) problems.push("a link written out in the visible text");
  return problems;
}

/** What each language must say: the subject's first word, the weekday of Tuesday 24 November, the join button. */
const WORDS: Record<string, { confirmed: string; tuesday: string; join: string; invited: string }> = {
  en: { confirmed: "Confirmed", tuesday: "Tuesday", join: "Join the meeting", invited: "invited you" },
  de: { confirmed: "Bestätigt", tuesday: "Dienstag", join: "Am Termin teilnehmen", invited: "eingeladen" },
  fr: { confirmed: "Confirmé", tuesday: "mardi", join: "Rejoindre la réunion", invited: "vous a invité" },
  es: { confirmed: "Confirmada", tuesday: "martes", join: "Unirse a la reunión", invited: "te ha invitado" },
  it: { confirmed: "Confermata", tuesday: "martedì", join: "Partecipa all’incontro", invited: "ti ha invitato" },
  pt: { confirmed: "Confirmada", tuesday: "terça-feira", join: "Entrar na reunião", invited: "convidou-o" },
  nl: { confirmed: "Bevestigd", tuesday: "dinsdag", join: "Deelnemen aan de afspraak", invited: "uitgenodigd" },
  pl: { confirmed: "Potwierdzono", tuesday: "wtorek", join: "Dołącz do spotkania", invited: "zaprasza" },
  cs: { confirmed: "Potvrzeno", tuesday: "úterý", join: "Připojit se ke schůzce", invited: "zve" },
  ja: { confirmed: "確定", tuesday: "火曜日", join: "ミーティングに参加", invited: "招待されました" },
};

describe("emails in the visitor's language", () => {
  it("has texts for every language the element speaks, each with its plural forms", () => {
    expect(Object.keys(MAIL_CATALOGS).sort()).toEqual([...LANGUAGES].sort());
    expect(Object.keys(WORDS).sort()).toEqual([...LANGUAGES].sort());
    // Polish and Czech counts take three forms in whole numbers.
    expect([1, 2, 5, 22, 25].map((n) => counted("pl", "hours", n))).toEqual(["1 godzinę", "2 godziny", "5 godzin", "22 godziny", "25 godzin"]);
    expect([1, 3, 5].map((n) => counted("cs", "days", n))).toEqual(["1 den", "3 dny", "5 dní"]);
    expect(counted("ja", "minutes", 1)).toBe("1分");
    expect(mailLocale("pl-PL-u-hc-h12", "de")).toEqual({ language: "pl", hour12: true, region: "pl-PL" });
    // The clock as Intl.Locale reads it, wherever the extension puts it; a tag naming it twice by its last.
    expect(mailLocale("de-DE-u-ca-gregory-hc-h23", null).hour12).toBe(false);
    expect(mailLocale("de-DE-u-hc-h12-u-hc-h23", null).hour12).toBe(false);
    expect(mailLocale("de-u-hc-h12", null)).toEqual({ language: "de", hour12: true });
    expect(mailLocale("sv", "de-AT")).toEqual({ language: "de", hour12: null, region: "de-AT" });
    expect(mailLocale(null, "")).toEqual({ language: "en", hour12: null });
  });

  it("writes the confirmation, the guest's invite and their calendar entries in each of the 10 languages, as branded HTML with a matching text part", async () => {
    const w = await world();
    for (const [i, language] of LANGUAGES.entries()) {
      const visitor = `ada.${language}@example.com`;
      // One slot each, from 09:00 on: Tuesday's half hours.
      const hhmm = `${String(9 + Math.floor(i / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`;
      const end = `${String(9 + Math.floor((i + 1) / 2)).padStart(2, "0")}:${i % 2 ? "00" : "30"}`;
      const booked = await w.book({
        start: `2026-11-24T${hhmm}:00+01:00`,
        end: `2026-11-24T${end}:00+01:00`,
        email: visitor,
        firstname: "Ada",
        lastname: "Lovelace",
        guests: [GUEST],
        locale: `${language}-u-hc-h23`,
        timezone: "Europe/Prague",
      });
      const before = w.smtp.received.length;
      await w.send();
      const sent = w.smtp.received.slice(before);
      expect((await w.stored(booked.uuid))?.locale, language).toBe(`${language}-u-hc-h23`);
      expect(sent.map((m) => m.to[0]).sort(), language).toEqual([visitor, GUEST, ORGANIZER].sort());
      const words = WORDS[language]!;
      const toVisitor = sent.find((m) => m.to[0] === visitor)!;
      const toGuest = sent.find((m) => m.to[0] === GUEST)!;
      const toOrganizer = sent.find((m) => m.to[0] === ORGANIZER)!;

      // Subject and both bodies in the visitor's language, the time on their 24-hour clock.
      expect(toVisitor.mail.subject, language).toMatch(new RegExp(`^${words.confirmed}: `));
      expect(toVisitor.mail.subject, language).toContain(words.tuesday);
      // A 24-hour clock, with or without the leading zero as the language writes it (de 9:30, en 09:30).
      expect(toVisitor.mail.subject, language).toMatch(new RegExp(`\\b${hhmm.replace(/^0/, "0?")}\\b`));
      expect(toVisitor.mail.subject, language).not.toMatch(/AM|PM|午前/);
      expect(toVisitor.mail.subject, language).toContain(HOST);
      for (const body of [toVisitor.mail.text!, toVisitor.mail.html as string]) {
        expect(body, language).toContain(words.join);
        expect(body, language).toContain(words.tuesday);
      }
      expect(toVisitor.mail.html, language).toContain(`<html lang="${language}">`);
      // The text part carries every link the HTML has behind its buttons.
      expect(toVisitor.mail.text, language).toContain(booked.meetLink);
      expect(toVisitor.mail.text, language).toContain(booked.manageUrl);
      expect(toVisitor.mail.html, language).toContain(`href="${booked.meetLink}"`);
      expect(toVisitor.mail.html, language).toContain(`href="${booked.manageUrl}&#38;action=reschedule"`);
      expect(toVisitor.mail.html, language).toContain(`href="${booked.manageUrl}&#38;action=cancel"`);
      expect(emailHtmlProblems(toVisitor.mail.html as string), language).toEqual([]);
      // The brand colour on the header and the main button, with text readable on it.
      expect(toVisitor.mail.html, language).toContain(`background-color:${BRAND}`);
      expect(toGuest.mail.text, language).toContain(words.invited);
      expect(toGuest.mail.text, language).not.toContain(booked.manageUrl);
      expect(emailHtmlProblems(toGuest.mail.html as string), language).toEqual([]);
      expect(emailHtmlProblems(toOrganizer.mail.html as string), language).toEqual([]);

      // The invites: the host organizes, the visitor and guest attend, the title names the host.
      const visitorInvite = calendarOf(toVisitor);
      const guestInvite = calendarOf(toGuest);
      for (const invite of [visitorInvite, guestInvite]) {
        expect([invite.method, invite.partMethod], language).toEqual(["REQUEST", "REQUEST"]);
        expect(invite.organizer, language).toBe(`mailto:${ORGANIZER}`);
        expect(invite.organizerName, language).toBe(HOST);
        expect(invite.attendees, language).toEqual([`mailto:${visitor}`, `mailto:${GUEST}`]);
        expect(invite.summary, language).toContain("Intro call");
        expect(invite.summary, language).toContain(HOST);
        expect(invite.summary, language).not.toContain("Ada");
        expect(invite.description, language).toContain(words.join);
      }
      expect(guestInvite.uid).toBe(visitorInvite.uid);
      expect(visitorInvite.description).toContain(booked.manageUrl);
      expect(guestInvite.description).not.toContain(booked.manageUrl);

      // The organizer's copy is a notification in the event type's language (English by default):
      // a PUBLISH file attached, not an invitation to their own meeting.
      const copy = calendarOf(toOrganizer);
      expect([copy.method, copy.partMethod, copy.disposition], language).toEqual(["PUBLISH", "PUBLISH", "attachment"]);
      expect(copy.summary).toBe("Intro call with Ada Lovelace");
      // PUBLISH carries no ATTENDEE (RFC 5546 3.2.1): who takes part is named in the description.
      expect(copy.attendees, language).toEqual([]);
      expect(copy.organizer).toBe(`mailto:${ORGANIZER}`);
      expect(copy.description).toContain(`Guests: Ada Lovelace <${visitor}>, ${GUEST}`);
      expect(copy.description).toContain(booked.meetLink);
      expect(copy.description).not.toContain(booked.manageUrl);
      expect(toOrganizer.mail.subject).toMatch(/^Confirmed: Intro call with Ada Lovelace, Tuesday/);
      expect(toOrganizer.mail.text).toContain("a copy for you, not an invitation");
      expect(toOrganizer.mail.text).not.toContain(booked.uuid);
    }
  });

  it("follows the visitor's clock and zone, and falls back to the event type's language, then English", async () => {
    const w = await world({ locale: { preset: "de" } });
    await w.book({ ...TUE_0900, email: "twelve@example.com", locale: "en-US-u-hc-h12", timezone: "America/New_York" });
    await w.book({ ...TUE_0900, start: "2026-11-24T10:00:00+01:00", end: "2026-11-24T10:30:00+01:00", email: "none@example.com" });
    await w.book({ ...TUE_0900, start: "2026-11-24T11:00:00+01:00", end: "2026-11-24T11:30:00+01:00", email: "swedish@example.com", locale: "sv-SE" });
    await w.send();
    const subject = (to: string) => w.smtp.received.find((m) => m.to[0] === to)!.mail.subject!;
    // 09:00 in Prague is 3:00 AM in New York.
    expect(subject("twelve@example.com")).toMatch(
      /^Confirmed: Intro call with Jana Nováková, Tuesday, November 24, 2026, 3:00\sAM–3:30\sAM \(Eastern Standard Time\)$/,
    );
    expect(subject("none@example.com")).toMatch(
      /^Bestätigt: Intro call mit Jana Nováková, Dienstag, 24\. November 2026, 10:00–10:30 \(Mitteleuropäische Normalzeit\)$/,
    );
    expect(subject("swedish@example.com")).toMatch(/^Bestätigt: /);
    // The organizer's copies are in the event type's language.
    expect(w.smtp.received.filter((m) => m.to[0] === ORGANIZER).map((m) => m.mail.subject!.split(",")[0])).toEqual([
      "Bestätigt: Intro call mit twelve@example.com",
      "Bestätigt: Intro call mit none@example.com",
      "Bestätigt: Intro call mit swedish@example.com",
    ]);
  });

  it("names the event type in the organizer's translation for the visitor's language: subject, body and invite", async () => {
    const w = await world({
      description: "A first talk about your project.",
      translations: { de: { title: "Kennenlerngespräch", description: "Ein erstes Gespräch über Ihr Projekt." } },
    });
    await w.book({ ...TUE_0900, email: "de@example.com", firstname: "Ada", guests: [GUEST], locale: "de-AT-u-hc-h23", timezone: "Europe/Vienna" });
    await w.book({
      ...TUE_0900,
      start: "2026-11-24T10:00:00+01:00",
      end: "2026-11-24T10:30:00+01:00",
      email: "fr@example.com",
      locale: "fr-u-hc-h23",
      timezone: "Europe/Paris",
    });
    await w.send();
    const to = (address: string) => w.smtp.received.filter((m) => m.to[0] === address);
    for (const m of [...to("de@example.com"), ...to(GUEST)]) {
      expect(m.mail.subject).toMatch(/^Bestätigt: Kennenlerngespräch mit Jana Nováková, /);
      expect(m.mail.text).toContain("Kennenlerngespräch");
      expect(m.mail.html).toContain("Kennenlerngespräch");
      expect(m.mail.text).not.toContain("Intro call");
      const invite = calendarOf(m);
      expect(invite.summary).toBe("Kennenlerngespräch mit Jana Nováková");
      expect(invite.description).toContain("Ein erstes Gespräch über Ihr Projekt.");
      expect(invite.description).not.toContain("A first talk");
    }
    // No French translation: the event type's own texts.
    const [fr] = to("fr@example.com");
    expect(fr!.mail.subject).toMatch(/^Confirmé : Intro call avec Jana Nováková|^Confirmé: Intro call/);
    expect(calendarOf(fr!).description).toContain("A first talk about your project.");
    // The organizer's copies speak the event type's language (English here): its own title.
    const copies = to(ORGANIZER);
    expect(copies.map((m) => m.mail.subject!.split(",")[0]).sort()).toEqual(["Confirmed: Intro call with Ada", "Confirmed: Intro call with fr@example.com"]);
  });

  it("writes dates as the visitor's region does (en-GB, en-US) and reads the clock the visitor chose last", async () => {
    const w = await world();
    await w.book({ ...TUE_0900, email: "gb@example.com", locale: "en-GB-u-hc-h23", timezone: "Europe/London" });
    await w.book({
      ...TUE_0900,
      start: "2026-11-24T10:00:00+01:00",
      end: "2026-11-24T10:30:00+01:00",
      email: "us@example.com",
      locale: "en-US-u-hc-h23",
      timezone: "Europe/London",
    });
    // A tag naming the clock twice, as the element once sent for a locale attribute with its own clock.
    await w.book({
      ...TUE_0900,
      start: "2026-11-24T14:00:00+01:00",
      end: "2026-11-24T14:30:00+01:00",
      email: "de@example.com",
      locale: "de-DE-u-hc-h12-u-hc-h23",
      timezone: "Europe/Berlin",
    });
    await w.send();
    const subject = (to: string) => w.smtp.received.find((m) => m.to[0] === to)!.mail.subject!;
    expect(subject("gb@example.com")).toMatch(/, Tuesday, 24 November 2026, 0?8:00–0?8:30 \(Greenwich Mean Time\)$/);
    expect(subject("us@example.com")).toMatch(/, Tuesday, November 24, 2026, 0?9:00–0?9:30 \(Greenwich Mean Time\)$/);
    expect(subject("de@example.com")).toMatch(/, Dienstag, 24\. November 2026, 14:00–14:30 \(/);
  });

  it("refuses a language tag that is not one, with the JSON validation error", async () => {
    const w = await world();
    const r = await w.call("POST", "/reservations", { ...TUE_0900, email: "bad@example.com", locale: "de<script>" });
    expect(r.status).toBe(422);
    expect(r.body.code, JSON.stringify(r.body)).toBe("validation_failed");
    expect(
      r.body.fieldErrors.map((e: { field: string }) => e.field),
      JSON.stringify(r.body),
    ).toEqual(["locale"]);
  });

  it("words the reminders' counts in the visitor's plural forms (Polish: one, few, many)", async () => {
    const w = await world({ reminderMinutes: [7200, 1440, 300, 120, 60] });
    await w.book({ ...MON_1400, email: "ola@example.com", firstname: "Ola", locale: "pl-u-hc-h23", timezone: "Europe/Warsaw" });
    await w.send();
    const before = w.smtp.received.length;
    w.env.clock.set(new Date(MON_1400_MS - 30 * 60_000).toISOString());
    await w.remind();
    const reminders = w.smtp.received.slice(before).filter((m) => m.to[0] === "ola@example.com");
    expect(reminders.map((m) => m.mail.subject!.split(":")[0])).toEqual(Array(5).fill("Przypomnienie"));
    expect(reminders.map((m) => /zaczyna się za ([^.]+)\./.exec(m.mail.text!)?.[1])).toEqual(["5 dni", "1 dzień", "5 godzin", "2 godziny", "1 godzinę"]);
    expect(reminders.every((m) => m.mail.text!.startsWith("Dzień dobry Ola,"))).toBe(true);
    expect(reminders.every((m) => emailHtmlProblems(m.mail.html as string).length === 0)).toBe(true);
  });

  it("picks button text that stays readable on the brand colour", () => {
    expect(textOn("#0f766e")).toBe("#ffffff");
    expect(textOn("#fde047")).toBe("#111827");
  });
});
