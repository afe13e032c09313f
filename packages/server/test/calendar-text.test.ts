import ICAL from "ical.js";
import nodeIcal, { type VEvent } from "node-ical";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { bookingEntriesOf } from "../src/modules/calendars/own-bookings.ts";
import { CalendarWriteWorker } from "../src/modules/calendars/writer.ts";
import { bookingUid, organizerBookingKey, organizerBookingUid } from "../src/modules/invites/ics.ts";
import { EmailWorker } from "../src/modules/mail/deliverer.ts";
import { startRadicale, type Radicale } from "./radicale.ts";
import { startSmtp, type Received, type Smtp } from "./smtp.ts";
import { ENGINE, reservation, setup, type Answer } from "./utils.ts";

// What visitors type reaches calendars on three channels: the invites of the emails (the visitor's
// and the organizer's copy, over a real SMTP server), the entry written into the organizer's CalDAV
// calendar (a real Radicale) and the private booking feed. Each text is read by two parsers, ical.js
// and node-ical, as calendar apps would. The clock of setup() stands on Monday 2026-11-23T07:00:00Z;
// the event type offers 30-minute slots on weekdays 09:00-17:00 in Prague (UTC+1).

const FROM = "Bookings <bookings@example.test>";
const ORGANIZER = "organizer@example.test";
const NOTES = "00000000-0000-4000-8000-0000000a07e5";
const COMPANY = "00000000-0000-4000-8000-00000000c0de";
const REPLY_TO = "00000000-0000-4000-8000-0000000e3a11";
const TOPICS = "00000000-0000-4000-8000-00000000710c";
const EVIL_UID = "evil-entry-1@evil.test";
const MALLORY = "mailto:mallory@evil.test";
const NO_RATE_LIMIT = { rateLimit: { limit: 100_000, windowSeconds: 60 } };

/** Every way text can break a line: RFC 5545's own, a carriage return alone, NUL, and Unicode's next-line and line separators. */
const BREAKS: Record<string, string> = { CR: "\r", CRLF: "\r\n", LF: "\n", NUL: "\u0000", NEL: "\u0085", LS: "\u2028" };

let radicale: Radicale;
let calendars = 0;
beforeAll(async () => {
  radicale = await startRadicale();
});
afterAll(async () => {
  await radicale?.stop();
});
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** An app whose event type has a booking page, an organizer email, a visitor's address as location and a notes field, mailing to a real SMTP server and writing into a Radicale calendar. */
async function world() {
  const smtp: Smtp = await startSmtp();
  cleanups.push(() => smtp.stop());
  const env = await setup({ config: { ...NO_RATE_LIMIT, mail: { smtpUrl: smtp.url, from: FROM } } });
  const created = await env.admin("POST", "/admin/event-types", {
    title: "Intro call",
    timezone: "Europe/Prague",
    slug: "intro",
    rescheduleNoticeMinutes: 0,
    cancelNoticeMinutes: 0,
    organizerEmail: ORGANIZER,
    maxGuests: 2,
    locations: [
      { type: "address", value: null },
      { type: "link", value: null },
    ],
    customFields: [
      { uuid: NOTES, label: "Notes", name: "notes", type: "textarea" },
      { uuid: COMPANY, label: "Company", name: "company", type: "text" },
    ],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const et = created.body.data as { id: number; token: string; linkToken: string; feedToken: string };
  const cal = await radicale.makeCalendar(`text-${process.pid}-${++calendars}`);
  const source = await env.admin("POST", `/admin/event-types/${et.id}/busy-sources`, {
    kind: "caldav",
    url: cal,
    username: radicale.user,
    password: radicale.password,
  });
  expect(source.status).toBe(200);
  expect((await env.admin("PUT", `/admin/busy-sources/${source.body.data.id}/write-bookings`, {})).status).toBe(200);
  const mail = new EmailWorker(env.store, env.clock, { mail: { smtpUrl: smtp.url, from: FROM } }, (e) => env.logs.push(e));
  const caldav = new CalendarWriteWorker(env.store, env.clock, { allowPrivateAddresses: true }, (e) => env.logs.push(e));
  const call = (method: string, path: string, body?: unknown, token = et.token) => env.call(method, path, { token, body });
  return {
    ...env,
    et,
    cal,
    smtp,
    sourceId: source.body.data.id as number,
    call,
    /** Delivers every email and calendar write due. */
    deliver: async () => {
      for (let pass = 0; pass < 50; pass++) if ((await mail.runOnce()) + (await caldav.runOnce()) === 0) return;
      throw new Error("the workers never went idle");
    },
    feed: async () => {
      const r = await env.call("GET", `/feeds/${et.feedToken}.ics`);
      expect(r.status).toBe(200);
      return r.text;
    },
  };
}

/** Reads an object from Radicale as the organizer; null when it is not there. */
async function objectAt(url: string): Promise<string | null> {
  const response = await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`${radicale.user}:${radicale.password}`).toString("base64")}` } });
  const text = await response.text();
  if (response.status === 404) return null;
  expect(response.status).toBe(200);
  return text;
}

/** The text/calendar part of a message, as the mail client decodes it. */
function inviteText(m: Received): string {
  const part = m.mail.attachments.find((a) => a.contentType === "text/calendar");
  expect(part, `no invite in "${m.mail.subject}"`).toBeDefined();
  return part!.content.toString("utf8");
}

/** Everything of a message, as sent and as decoded: the raw text, every header, subject, plain text, HTML and each attachment. */
function wholeMessage(m: Received): string {
  const { mail } = m;
  return [
    m.raw,
    ...mail.headerLines.map((h) => h.line),
    mail.subject ?? "",
    mail.text ?? "",
    typeof mail.html === "string" ? mail.html : "",
    ...mail.attachments.map((a) => `${a.filename ?? ""} ${a.content.toString("utf8")}`),
  ].join("\n");
}

/** One booking's entry as read from a calendar text by both parsers, which must agree. */
interface Entry {
  uid: string;
  summary: string;
  description: string;
  location: string;
  url: string;
  attendees: { value: string; cn: string | undefined }[];
}

/**
 * The VEVENTs of a calendar text, each read by ical.js and by node-ical (which must find the same
 * events, attendees and texts), after checking that every content line ends with CRLF and holds no
 * other line break or control character.
 */
function entriesOf(text: string): Entry[] {
  expect(text.endsWith("\r\n")).toBe(true);
  for (const line of text.slice(0, -2).split("\r\n")) expect(line, JSON.stringify(line)).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/);
  const byIcalJs = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent").map((e) => ({
    uid: String(e.getFirstPropertyValue("uid")),
    summary: String(e.getFirstPropertyValue("summary") ?? ""),
    description: String(e.getFirstPropertyValue("description") ?? ""),
    location: String(e.getFirstPropertyValue("location") ?? ""),
    url: String(e.getFirstPropertyValue("url") ?? ""),
    attendees: e.getAllProperties("attendee").map((p) => ({ value: String(p.getFirstValue()), cn: p.getParameter("cn") as string | undefined })),
  }));
  const parsed = nodeIcal.sync.parseICS(text);
  const byNodeIcal = Object.values(parsed)
    .filter((c) => c?.type === "VEVENT")
    .map((c) => {
      const e = c as VEvent;
      const attendees = e.attendee === undefined ? [] : [e.attendee].flat();
      const textOf = (v: unknown) => (typeof v === "object" && v !== null && "val" in v ? String((v as { val: unknown }).val) : String(v ?? ""));
      return {
        uid: e.uid,
        summary: textOf(e.summary),
        description: textOf(e.description),
        location: textOf(e.location),
        url: textOf(e.url),
        attendees: attendees.map((a) =>
          typeof a === "string" ? { value: a, cn: undefined } : { value: String(a.val), cn: a.params?.CN as string | undefined },
        ),
      };
    });
  expect(byNodeIcal).toEqual(byIcalJs);
  return byIcalJs;
}

/** What a TEXT value reads back as: every line break one LF, other control characters gone. */
const asText = (s: string) => s.replace(/\r\n|[\r\n\u0085\u2028\u2029]/g, "\n").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "");
/** What a parameter value reads back as: line breaks spaces, control characters gone, double quotes single, semicolons commas. */
const asParameter = (s: string) =>
  s
    .replace(/\r\n|[\r\n\u0085\u2028\u2029]/g, " ")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "")
    .replaceAll('"', "'")
    .replaceAll(";", ",");

describe("text a visitor gave, in every calendar channel", () => {
  it("stays inside its values in the invites, the organizer's copy, the CalDAV entry and the feed, read by two parsers", async () => {
    const w = await world();
    // Bookings stored before visitors' line breaks were refused, one per kind of break; NUL only
    // where the store can hold it (PostgreSQL text cannot).
    const kinds = Object.entries(BREAKS).filter(([name]) => ENGINE === "sqlite" || name !== "NUL");
    const hostile = kinds.map(([name, br], i) => {
      const start = `2026-11-24T${String(8 + i).padStart(2, "0")}:00:00Z`;
      const record = reservation(w.et.id, start, 30, {
        email: `visitor-${name.toLowerCase()}@example.com`,
        firstname: `Eve${br}ATTENDEE;CN=Mallory:${MALLORY}${br}UID:${EVIL_UID}`,
        lastname: `"Doe"; the 2nd, \\ ${name}${br}END:VEVENT${br}BEGIN:VEVENT${br}UID:${EVIL_UID}${br}DTSTART:20261124T150000Z`,
        guests: ["guest@example.com"],
        // The visitor's address, or their link, which becomes the entry's URL too.
        location:
          i % 2 === 0
            ? { type: "address", value: `Main Street 1${br}ATTENDEE:${MALLORY}${br}UID:${EVIL_UID}` }
            : { type: "link", value: `https://meet.example.org/x${br}ATTENDEE:${MALLORY}${br}UID:${EVIL_UID}` },
        customFields: [{ uuid: NOTES, value: `first line${br}END:VEVENT${br}BEGIN:VEVENT${br}UID:${EVIL_UID}` }],
      });
      return { name, record };
    });
    await w.store.reservations.insertMany(hostile.map((h) => h.record));

    // Each is moved through the API (every channel writes it anew), read, then cancelled.
    for (const [i, { record }] of hostile.entries()) {
      const moved = await w.call("PUT", `/reservations/${record.uuid}`, {
        start: `2026-11-25T${String(9 + i).padStart(2, "0")}:00:00Z`,
        end: `2026-11-25T${String(9 + i).padStart(2, "0")}:30:00Z`,
      });
      expect(moved.body.success, JSON.stringify(moved.body)).toBe(true);
    }
    await w.deliver();
    const feed = entriesOf(await w.feed());
    expect(feed.map((e) => e.uid).sort()).toEqual(hostile.map((h) => organizerBookingUid(h.record.uuid)).sort());

    for (const { name, record } of hostile) {
      const visitor = `${record.firstname} ${record.lastname}`;
      const visitorUid = bookingUid(record.uuid);
      const organizerUid = organizerBookingUid(record.uuid);
      const mails = w.smtp.received.filter((m) => m.to[0] === record.email || (m.to[0] === ORGANIZER && inviteText(m).includes(organizerUid)));
      expect(
        mails.map((m) => m.to),
        name,
      ).toEqual([[record.email], [ORGANIZER]]);
      // The name in the subject starts no header of its own.
      for (const m of mails)
        expect(
          [...m.mail.headers.keys()].filter((h) => /^(attendee|uid|end|begin|dtstart)/.test(h)),
          name,
        ).toEqual([]);
      const written = await objectAt(`${w.cal}${organizerBookingKey(record.uuid)}.ics`);
      expect(written, name).not.toBeNull();
      const copies: [string, string, Entry[]][] = [
        ["visitor's invite", visitorUid, entriesOf(inviteText(mails[0]!))],
        ["organizer's invite", organizerUid, entriesOf(inviteText(mails[1]!))],
        ["CalDAV entry", organizerUid, entriesOf(written!)],
        ["feed", organizerUid, feed.filter((e) => e.uid === organizerUid)],
      ];
      for (const [channel, uid, entries] of copies) {
        const where = `${name} in the ${channel}`;
        // One entry, under the booking's UID, with the visitor and their guests as its attendees: nothing was injected.
        // The organizer's emailed copy is a PUBLISH, which names no attendee: its description names them instead.
        expect(
          entries.map((e) => e.uid),
          where,
        ).toEqual([uid]);
        const [entry] = entries;
        if (channel === "organizer's invite") {
          expect(entry!.attendees, where).toEqual([]);
          expect(entry!.description, where).toContain(asText(visitor));
          for (const g of record.guests) expect(entry!.description, where).toContain(g);
        } else
          expect(entry!.attendees, where).toEqual([
            { value: `mailto:${record.email}`, cn: asParameter(visitor) },
            ...record.guests.map((g) => ({ value: `mailto:${g}`, cn: undefined })),
          ]);
        // The visitor's own invite is titled by the event type (and host), the organizer's copies by the visitor.
        if (channel === "visitor's invite") expect(entry!.summary, where).not.toContain(asText(visitor));
        else expect(entry!.summary, where).toContain(asText(visitor));
        expect(entry!.location, where).toBe(asText(record.location!.value!));
        // A link stays one URI, its breaks percent-encoded.
        if (record.location!.type === "link") expect(entry!.url, where).toMatch(/^https:\/\/meet\.example\.org\/x[^\s\u0000-\u001f\u007f-\u009f]+$/);
      }
      expect(copies[3]![2][0]!.description).toContain(`Notes: ${asText(String(record.customFields[0]!.value))}`);
    }

    // The organizer's title too, in the feed's name: an extension property, which ical.js writes as given.
    const title = `Intro, call; "1" \\${"\r\n"}X-INJECTED:1`;
    expect((await w.admin("PATCH", `/admin/event-types/${w.et.id}`, { title })).status).toBe(200);
    const renamed = await w.feed();
    expect(entriesOf(renamed)).toHaveLength(hostile.length);
    expect(renamed).not.toContain("\r\nX-INJECTED");
    expect(new ICAL.Component(ICAL.parse(renamed)).getFirstProperty("x-injected")).toBeNull();
    // ical.js hands an unknown property's text over as written; node-ical reads the escapes.
    expect(nodeIcal.sync.parseICS(renamed).vcalendar).toMatchObject({ "WR-CALNAME": `Bookings: ${asText(title)}` });

    // Each cancelled with a reason of several lines, which the cancel invites carry.
    const reason = (br: string) => `Ill.\r\nSorry${br}END:VEVENT\rBEGIN:VEVENT\r\nUID:${EVIL_UID}${br}ATTENDEE:${MALLORY}`;
    for (const { name, record } of hostile) {
      const cancelled = await w.call("DELETE", `/reservations/${record.uuid}`, { reason: reason(name === "NUL" ? "\n" : BREAKS[name]!) });
      expect(cancelled.status, cancelled.text).toBe(200);
    }
    const before = w.smtp.received.length;
    await w.deliver();
    const cancels = w.smtp.received.slice(before);
    // The visitor, their guest and the organizer each get the cancellation.
    expect(cancels).toHaveLength(hostile.length * 3);
    for (const { name, record } of hostile) {
      const given = asText(reason(name === "NUL" ? "\n" : BREAKS[name]!));
      const mine = cancels.filter((m) => m.to[0] === record.email || (m.to[0] === ORGANIZER && inviteText(m).includes(organizerBookingUid(record.uuid))));
      expect(
        mine.map((m) => m.to[0]),
        name,
      ).toEqual([record.email, ORGANIZER]);
      for (const m of mine) {
        const [entry, ...more] = entriesOf(inviteText(m));
        expect(more, name).toEqual([]);
        expect(entry!.uid, name).toBe(m.to[0] === ORGANIZER ? organizerBookingUid(record.uuid) : bookingUid(record.uuid));
        // The organizer's copy is a PUBLISH: no attendee, the visitor named in its description.
        if (m.to[0] === ORGANIZER) {
          expect(entry!.attendees, name).toEqual([]);
          expect(entry!.description, name).toContain(asText(`${record.firstname} ${record.lastname}`));
        } else
          expect(entry!.attendees, name).toEqual([
            { value: `mailto:${record.email}`, cn: asParameter(`${record.firstname} ${record.lastname}`) },
            ...record.guests.map((g) => ({ value: `mailto:${g}`, cn: undefined })),
          ]);
        expect(entry!.description, name).toContain(`Reason: ${given}`);
        expect(m.mail.text, name).toContain(`Reason: ${given}`);
      }
    }
    expect(entriesOf(await w.feed())).toEqual([]);
  });
});

describe("the organizer's copies of a booking", () => {
  it("keep one UID that does not reveal the reservation across email, CalDAV and feed through reschedule and cancel, and hand out nothing that cancels", async () => {
    const w = await world();
    const booked = await w.call("POST", "/reservations", {
      start: "2026-11-24T09:00:00+01:00",
      end: "2026-11-24T09:30:00+01:00",
      email: "ada@example.com",
      firstname: "Ada",
      lastname: "Lovelace",
      location: { type: "address", value: "Main Street 1" },
    });
    expect(booked.body.success, JSON.stringify(booked.body)).toBe(true);
    const uuid = booked.body.data.uuid as string;
    const key = organizerBookingKey(uuid);
    const organizerUid = organizerBookingUid(uuid);
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    await w.deliver();

    const organizerSide = async () => {
      const mails = w.smtp.received.filter((m) => m.to[0] === ORGANIZER);
      // Nowhere in the organizer's messages: not in the invite, the subject, the bodies, any header or part.
      for (const m of mails) expect(wholeMessage(m), m.mail.subject).not.toContain(uuid);
      const organizerMails = mails.map(inviteText);
      const written = await objectAt(`${w.cal}${key}.ics`);
      const feed = await w.feed();
      return { organizerMails, written, feed };
    };
    const first = await organizerSide();
    expect(first.organizerMails.map((t) => entriesOf(t)[0]!.uid)).toEqual([organizerUid]);
    expect(entriesOf(first.written!).map((e) => e.uid)).toEqual([organizerUid]);
    expect(entriesOf(first.feed).map((e) => e.uid)).toEqual([organizerUid]);
    for (const text of [...first.organizerMails, first.written!, first.feed]) expect(text).not.toContain(uuid);

    // What the organizer may share names nothing the public API knows: with the booking page's
    // published link token, the UID and its key are unknown reservations; the uuid itself would cancel.
    for (const id of [key, organizerUid, encodeURIComponent(organizerUid)]) {
      const r: Answer = await w.call("DELETE", `/reservations/${id}`, undefined, w.et.linkToken);
      expect(r.status, id).toBe(404);
      expect(r.body.code).toBe("not_found");
    }

    expect((await w.call("PUT", `/reservations/${uuid}`, { start: "2026-11-26T10:00:00+01:00", end: "2026-11-26T10:30:00+01:00" })).body.success).toBe(true);
    await w.deliver();
    const moved = await organizerSide();
    expect(moved.organizerMails.map((t) => entriesOf(t)[0]!.uid)).toEqual([organizerUid, organizerUid]);
    expect(moved.written).toContain("DTSTART:20261126T090000Z");
    expect(entriesOf(moved.written!).map((e) => e.uid)).toEqual([organizerUid]);
    expect(entriesOf(moved.feed).map((e) => e.uid)).toEqual([organizerUid]);
    // The visitor's invites keep the uuid: their manage link needs it.
    expect(w.smtp.received.filter((m) => m.to[0] === "ada@example.com").map((m) => entriesOf(inviteText(m))[0]!.uid)).toEqual([
      bookingUid(uuid),
      bookingUid(uuid),
    ]);

    expect((await w.call("DELETE", `/reservations/${uuid}`, { reason: "Something came up" }, w.et.linkToken)).status).toBe(200);
    await w.deliver();
    const cancelled = await organizerSide();
    expect(w.smtp.received.filter((m) => m.to[0] === ORGANIZER).map((m) => m.mail.text)).toEqual([
      expect.any(String),
      expect.any(String),
      expect.stringContaining("Reason: Something came up"),
    ]);
    expect(cancelled.organizerMails.map((t) => entriesOf(t)[0]!.uid)).toEqual([organizerUid, organizerUid, organizerUid]);
    expect(cancelled.written).toBeNull();
    expect(entriesOf(cancelled.feed)).toEqual([]);
  });

  it("still finds, moves and removes an entry written under the reservation's uuid before, and never lets it block its own seats", async () => {
    const w = await world();
    const booked = await w.call("POST", "/reservations", {
      start: "2026-11-24T09:00:00+01:00",
      end: "2026-11-24T09:30:00+01:00",
      email: "ada@example.com",
      firstname: "Ada",
      lastname: "Lovelace",
      location: { type: "address", value: "Main Street 1" },
    });
    const uuid = booked.body.data.uuid as string;
    await w.deliver();
    // As the entry was written before: named and identified by the uuid.
    const current = `${w.cal}${organizerBookingKey(uuid)}.ics`;
    const text = (await objectAt(current))!;
    await radicale.remove(current);
    const legacy = await radicale.put(w.cal, `${uuid}.ics`, text.replace(organizerBookingUid(uuid), bookingUid(uuid)));
    const slots = async () =>
      (await w.call("GET", "/time-slots?from=2026-11-24&until=2026-11-24")).body.data.map((s: { startIso8601: string }) => s.startIso8601);
    const synced = await w.admin("POST", `/admin/busy-sources/${w.sourceId}/sync`);
    expect(synced.body.data.source).toMatchObject({ objects: 1, busyIntervals: 0 });

    expect((await w.call("PUT", `/reservations/${uuid}`, { start: "2026-11-24T11:00:00+01:00", end: "2026-11-24T11:30:00+01:00" })).body.success).toBe(true);
    await w.deliver();
    expect(await objectAt(legacy)).toBeNull();
    expect(await objectAt(current)).toContain("DTSTART:20261124T100000Z");
    const again = await w.admin("POST", `/admin/busy-sources/${w.sourceId}/sync`);
    expect(again.body.data.source).toMatchObject({ objects: 1, busyIntervals: 0 });
    // The freed 09:00 is offered again; the booking's own entry closes nothing.
    expect(await slots()).toContain("2026-11-24T08:00:00Z");

    // An entry of the same key format that is no reservation of this event type blocks.
    await radicale.put(w.cal, "stranger.ics", text.replace(organizerBookingKey(uuid), organizerBookingKey(crypto.randomUUID())));
    const third = await w.admin("POST", `/admin/busy-sources/${w.sourceId}/sync`);
    expect(third.body.data.source).toMatchObject({ objects: 2, busyIntervals: 1 });
    expect(await slots()).not.toContain("2026-11-24T08:00:00Z");

    expect((await w.call("DELETE", `/reservations/${uuid}`)).status).toBe(200);
    await w.deliver();
    expect(await objectAt(current)).toBeNull();
  });
});

describe("the sync's reading of booking entries", () => {
  const object = (uid: string, start: string) =>
    `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:${uid}\r\n${start}\r\nDTEND:20261124T083000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;
  const uuid = "8c4e2a57-1d3b-4f6e-9a0c-5b7d8e9f0a1b";
  const key = organizerBookingKey(uuid);
  const HOUR = 3_600_000;

  it("finds the key and where to look for an organizer-side entry, in UTC, a zone's local time (as calendar apps may rewrite it) or a whole day", () => {
    expect(bookingEntriesOf(object(organizerBookingUid(uuid), "DTSTART:20261124T080000Z"))).toEqual([
      { key, startMs: Date.parse("2026-11-24T08:00:00Z"), slackMs: 0 },
    ]);
    expect(bookingEntriesOf(object(organizerBookingUid(uuid), "DTSTART;TZID=Europe/Prague:20261124T090000"))).toEqual([
      { key, startMs: Date.parse("2026-11-24T09:00:00Z"), slackMs: 14 * HOUR },
    ]);
    expect(bookingEntriesOf(object(organizerBookingUid(uuid), "DTSTART;VALUE=DATE:20261124"))).toEqual([
      { key, startMs: Date.parse("2026-11-24T00:00:00Z"), slackMs: 38 * HOUR },
    ]);
    // Entries written before the organizer's key name the uuid; anything else is no booking.
    expect(bookingEntriesOf(object(bookingUid(uuid), "DTSTART:20261124T080000Z"))).toEqual([{ uuid }]);
    expect(bookingEntriesOf(object("meeting-42@example.com", "DTSTART:20261124T080000Z"))).toBeNull();
    expect(bookingEntriesOf(object(`${key}@elsewhere.example`, "DTSTART:20261124T080000Z"))).toBeNull();
  });
});

describe("control characters in what a visitor types", () => {
  /** An app with the same event type, without mail or calendars: only the API's answers and the store. */
  async function api() {
    const env = await setup({ config: NO_RATE_LIMIT });
    const created = await env.admin("POST", "/admin/event-types", {
      title: "Intro call",
      timezone: "Europe/Prague",
      cancelNoticeMinutes: 0,
      rescheduleNoticeMinutes: 0,
      maxGuests: 2,
      locations: [
        { type: "address", value: null },
        { type: "link", value: null },
      ],
      customFields: [
        { uuid: NOTES, label: "Notes", name: "notes", type: "textarea" },
        { uuid: COMPANY, label: "Company", name: "company", type: "text" },
        { uuid: REPLY_TO, label: "Reply to", name: "replyTo", type: "email" },
        { uuid: TOPICS, label: "Topics", name: "topics", type: "multiselect", options: ["Pricing", "Support"] },
      ],
    });
    expect(created.status).toBe(200);
    const et = created.body.data as { id: number; token: string };
    const call = (method: string, path: string, body?: unknown) => env.call(method, path, { token: et.token, body });
    const stored = async () =>
      (await env.admin("GET", `/admin/event-types/${et.id}/reservations?from=2026-11-24&until=2026-11-25`)).body.data as Record<string, any>[];
    return { ...env, call, stored };
  }
  const TUE = { start: "2026-11-24T09:00:00+01:00", end: "2026-11-24T09:30:00+01:00" };
  const fieldsOf = (r: Answer) => {
    expect(r.status, r.text).toBe(422);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.body.code).toBe("validation_failed");
    return r.body.fieldErrors.map((e: { field: string; code: string }) => `${e.field} ${e.code}`).sort();
  };

  it("are refused with 422 in every single-line field, line breaks of every kind among them, and nothing is stored", async () => {
    const w = await api();
    for (const [name, bad] of Object.entries({ ...BREAKS, TAB: "\t", DEL: "\u007f", PS: "\u2029", C1: "\u009b" })) {
      const r = await w.call("POST", "/reservations", {
        ...TUE,
        email: "ada@example.com",
        firstname: `Ada${bad}x`,
        lastname: `Love${bad}lace`,
        location: { type: "address", value: `Main Street 1${bad}UID:x` },
        customFields: [{ uuid: COMPANY, value: `Acme${bad}Inc` }],
      });
      expect(fieldsOf(r), name).toEqual([
        `customFields.${COMPANY} control_characters`,
        "firstname control_characters",
        "lastname control_characters",
        "location.value control_characters",
      ]);
    }
    expect(await w.stored()).toEqual([]);

    // The name given when a hold is confirmed is held to the same rule.
    const held = await w.call("POST", "/reservations/prepare", { ...TUE, email: "ada@example.com", location: { type: "address", value: "Main Street 1" } });
    expect(held.body.success, JSON.stringify(held.body)).toBe(true);
    for (const bad of ["\r", "\u2028", "\u0000"]) {
      expect(fieldsOf(await w.call("POST", `/reservations/${held.body.data.uuid}/confirm`, { firstname: `Ada${bad}`, lastname: "Lovelace" }))).toEqual([
        "firstname control_characters",
      ]);
    }
  });

  it("are refused with 422 naming the field in the phone, the email addresses, a visitor's link, the zone, answers of every kind, and what confirm and reschedule take", async () => {
    const w = await api();
    const held = await w.call("POST", "/reservations/prepare", { ...TUE, email: "ada@example.com", location: { type: "address", value: "Main Street 1" } });
    expect(held.body.success, JSON.stringify(held.body)).toBe(true);
    const hold = held.body.data.uuid as string;
    const booked = await w.call("POST", "/reservations", {
      start: "2026-11-24T10:00:00+01:00",
      end: "2026-11-24T10:30:00+01:00",
      email: "bob@example.com",
      location: { type: "link", value: "https://meet.example.org/bob" },
    });
    expect(booked.body.success, JSON.stringify(booked.body)).toBe(true);
    const uuid = booked.body.data.uuid as string;

    for (const [name, bad] of Object.entries({ ...BREAKS, TAB: "\t", DEL: "\u007f", PS: "\u2029", C1: "\u009b" })) {
      // The phone, a visitor's link and answers of a single-line kind, in a booking and in a hold alike.
      for (const path of ["/reservations", "/reservations/prepare"]) {
        const r = await w.call("POST", path, {
          ...TUE,
          email: "ada@example.com",
          phone: `+420 123${bad}456`,
          location: { type: "link", value: `https://meet.example.org/x${bad}UID:x` },
          customFields: [
            { uuid: REPLY_TO, value: `ada@example.com${bad}` },
            { uuid: TOPICS, value: ["Pricing", `Support${bad}`] },
          ],
        });
        expect(fieldsOf(r), `${name} in ${path}`).toEqual([
          `customFields.${TOPICS} control_characters`,
          `customFields.${REPLY_TO} control_characters`,
          "location.value control_characters",
          "phone control_characters",
          "phone invalid_phone",
        ]);
      }
      // The booker's address and a guest's are email addresses, which hold no control character.
      const addresses = await w.call("POST", "/reservations", {
        ...TUE,
        email: `ada${bad}@example.com`,
        guests: ["carol@example.com", `dave@example.com${bad}`],
        location: { type: "address", value: "Main Street 1" },
      });
      expect(fieldsOf(addresses), name).toEqual(["email invalid_email", "guests.1 invalid_email"]);
      // The visitor's zone names no IANA zone.
      const zone = await w.call("POST", "/reservations", {
        ...TUE,
        email: "ada@example.com",
        timezone: `Europe/Prague${bad}`,
        location: { type: "address", value: "Main Street 1" },
      });
      expect(fieldsOf(zone), name).toEqual(["timezone invalid_timezone"]);

      // Confirming a hold: every text it takes.
      const confirm = await w.call("POST", `/reservations/${hold}/confirm`, {
        firstname: "Ada",
        lastname: `Love${bad}lace`,
        phone: `+420${bad}123 456`,
        customFields: [
          { uuid: COMPANY, value: `Acme${bad}` },
          { uuid: REPLY_TO, value: `${bad}ada@example.com` },
        ],
      });
      expect(fieldsOf(confirm), name).toEqual([
        `customFields.${COMPANY} control_characters`,
        `customFields.${REPLY_TO} control_characters`,
        "lastname control_characters",
        "phone control_characters",
        "phone invalid_phone",
      ]);

      // Rescheduling takes one text of the visitor's, the zone, and an override token the organizer handed out.
      const moved = await w.call("PUT", `/reservations/${uuid}`, {
        start: "2026-11-25T10:00:00+01:00",
        end: "2026-11-25T10:30:00+01:00",
        timezone: `Europe/Prague${bad}`,
      });
      expect(fieldsOf(moved), name).toEqual(["timezone invalid_timezone"]);
      const overridden = await w.call("PUT", `/reservations/${uuid}`, {
        start: "2026-11-25T10:00:00+01:00",
        end: "2026-11-25T10:30:00+01:00",
        overrideToken: `x${bad}y`,
      });
      expect(overridden.status, overridden.text).toBe(403);
      expect(overridden.body.code).toBe("forbidden");
      // The cancel's override token, in the query.
      const cancelled = await w.call("DELETE", `/reservations/${uuid}?overrideToken=${encodeURIComponent(`x${bad}y`)}`);
      expect(cancelled.status, cancelled.text).toBe(403);
      expect(cancelled.body.code).toBe("forbidden");
    }
    // Nothing changed: the hold is still held without a name, the booking where it was.
    const stored = await w.stored();
    expect(stored.map((r) => [r.uuid, r.status, r.lastname, r.start])).toEqual([
      [hold, "held", "", "2026-11-24T09:00:00+01:00"],
      [uuid, "confirmed", "", "2026-11-24T10:00:00+01:00"],
    ]);
  });

  it("keep the line breaks of free text as LFs and refuse any other control character there, a NUL in a cancel reason included", async () => {
    const w = await api();
    const nul = await w.call("POST", "/reservations", {
      ...TUE,
      email: "ada@example.com",
      location: { type: "address", value: "Main Street 1" },
      customFields: [{ uuid: NOTES, value: "one\u0000two" }],
    });
    expect(fieldsOf(nul)).toEqual([`customFields.${NOTES} control_characters`]);
    const booked = await w.call("POST", "/reservations", {
      ...TUE,
      email: "ada@example.com",
      location: { type: "address", value: "Main Street 1" },
      customFields: [{ uuid: NOTES, value: "one\r\ntwo\rthree\u2028four\u0085five\tsix\n" }],
    });
    expect(booked.body.success, JSON.stringify(booked.body)).toBe(true);
    const uuid = booked.body.data.uuid as string;
    expect((await w.stored())[0]!.customFields).toEqual([{ uuid: NOTES, value: "one\ntwo\nthree\nfour\nfive\tsix" }]);

    // PostgreSQL cannot store a NUL: refused before anything is written, on both engines alike.
    for (const reason of ["changed my mind\u0000", "why\u0007", "\u001b[31mred"]) {
      expect(fieldsOf(await w.call("DELETE", `/reservations/${uuid}`, { reason })), JSON.stringify(reason)).toEqual(["reason control_characters"]);
    }
    expect((await w.stored())[0]).toMatchObject({ status: "confirmed", cancelReason: null });
    const cancelled = await w.call("DELETE", `/reservations/${uuid}`, { reason: "Ill.\r\nSorry\u2028again " });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await w.stored())[0]).toMatchObject({ status: "cancelled", cancelReason: "Ill.\nSorry\nagain" });
  });
});
