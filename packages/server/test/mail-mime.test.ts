import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { mimeMessage, type OutgoingMail } from "../src/modules/mail/mime.ts";

// The MIME the mail worker writes, read back by a real parser (mailparser), as a mail client would.

const ICS = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nUID:abc\r\nSUMMARY:Úvodní hovor\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
const base: OutgoingMail = {
  from: "Jana Nováková <jana@example.test>",
  to: "ada@example.com",
  subject: "Potvrzeno: Úvodní hovor s Janou Novákovou, čtvrtek 3. prosince 2026 10:00–10:30 (Evropa/Praha) — 予約確認",
  text: "Dobrý den, Ado,\n\nvaše schůzka je potvrzená.\n",
  html: `<p>Dobrý den, Ado</p>${"<p>řádek</p>".repeat(400)}`,
  messageId: "mail_0123456789abcdef@booking-calendar",
  dateMs: Date.UTC(2026, 10, 26, 12, 30),
};

describe("MIME of an outgoing email", () => {
  it("carries any language in the subject, sender name, text and HTML, with the Message-ID and date, in lines no longer than 998", async () => {
    const raw = mimeMessage(base);
    expect(raw).toMatch(/^[\x00-\x7f]*$/);
    expect(Math.max(...raw.split("\r\n").map((l) => l.length))).toBeLessThanOrEqual(998);
    const mail = await simpleParser(raw);
    expect(mail.subject).toBe(base.subject);
    expect(mail.from?.value).toEqual([{ address: "jana@example.test", name: "Jana Nováková" }]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : null).toEqual(["ada@example.com"]);
    expect(mail.text).toBe(base.text);
    expect(mail.html).toBe(base.html);
    expect(mail.messageId).toBe("<mail_0123456789abcdef@booking-calendar>");
    expect(mail.date?.getTime()).toBe(base.dateMs);
    expect(mail.attachments).toHaveLength(0);
  });

  it("offers an invite as a calendar alternative with its method and attaches it as invite.ics", async () => {
    const raw = mimeMessage({ ...base, calendar: { method: "REQUEST", ics: ICS } });
    expect(raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST\r\n/);
    const mail = await simpleParser(raw);
    expect(mail.text).toBe(base.text);
    const files = mail.attachments.map((a) => ({ type: a.contentType, name: a.filename ?? null, content: a.content.toString("utf8") }));
    expect(files).toContainEqual({ type: "application/ics", name: "invite.ics", content: ICS });
    expect(files.find((f) => f.type === "text/calendar")?.content).toBe(ICS);
  });

  it("attaches the organizer's PUBLISH copy as booking.ics only, with no calendar alternative to answer", async () => {
    const raw = mimeMessage({ ...base, calendar: { method: "PUBLISH", ics: ICS.replace("REQUEST", "PUBLISH") } });
    expect(raw).not.toMatch(/method=REQUEST/);
    const mail = await simpleParser(raw);
    expect(mail.attachments.map((a) => [a.contentType, a.filename, a.contentDisposition])).toEqual([["text/calendar", "booking.ics", "attachment"]]);
    expect(mail.html).toBe(base.html);
  });

  it("never lets a value start a header of its own, and quotes a plain sender name", async () => {
    const raw = mimeMessage({
      ...base,
      from: "Bookings, Desk <bookings@example.test>",
      to: "ada@example.com\r\nBcc: eve@example.com",
      subject: "Hi\r\nBcc: eve@example.com",
    });
    expect(raw).not.toMatch(/^Bcc:/m);
    const mail = await simpleParser(raw);
    expect(mail.bcc).toBeUndefined();
    expect(mail.from?.value).toEqual([{ address: "bookings@example.test", name: "Bookings, Desk" }]);
  });
});
