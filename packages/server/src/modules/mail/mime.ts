import type { InviteMethod } from "../invites/ics.ts";
import { senderOf } from "./events.ts";

/** A rendered message ready to be written out: who from and to, its texts, and its calendar entry when it has one. */
export interface OutgoingMail {
  /** `Name <address>` or an address (MAIL_FROM). */
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The Message-ID without its angle brackets. */
  messageId: string;
  dateMs: number;
  calendar?: { method: InviteMethod; ics: string };
}

/**
 * The message in MIME (RFC 5322, 2045-2047), as SMTP's DATA carries it. Text, HTML and the
 * calendar entry are alternatives of one another; an invite (REQUEST, CANCEL) is also attached as
 * `invite.ics`, the organizer's PUBLISH copy only as the attachment `booking.ics` (so no client
 * offers to answer it). Bodies are base64 (any language, lines of 76), headers with anything but
 * printable ASCII are encoded words. Written here in one pass and handed to the SMTP transport as
 * is: nodemailer's general MIME builder streams every part through encoders and cost about a
 * millisecond of CPU per message, several times the rendering and the booking's own work.
 */
export function mimeMessage(m: OutgoingMail): string {
  const parts = [part("text/plain; charset=utf-8", m.text), part("text/html; charset=utf-8", m.html)];
  let body: string;
  if (!m.calendar) {
    body = multipart("alternative", parts);
  } else if (m.calendar.method === "PUBLISH") {
    const attachment = part(`text/calendar; charset=utf-8; method=PUBLISH; name=booking.ics`, m.calendar.ics, "attachment; filename=booking.ics");
    body = multipart("mixed", [multipart("alternative", parts), attachment]);
  } else {
    parts.push(part(`text/calendar; charset=utf-8; method=${m.calendar.method}`, m.calendar.ics));
    const attachment = part("application/ics; name=invite.ics", m.calendar.ics, "attachment; filename=invite.ics");
    body = multipart("mixed", [multipart("alternative", parts), attachment]);
  }
  const headers = [
    `From: ${mailbox(m.from)}`,
    `To: ${oneLine(m.to)}`,
    `Subject: ${encodedText(m.subject)}`,
    `Message-ID: <${oneLine(m.messageId)}>`,
    `Date: ${new Date(m.dateMs).toUTCString().replace("GMT", "+0000")}`,
    "MIME-Version: 1.0",
  ];
  return `${headers.join("\r\n")}\r\n${body}`;
}

/** One body part: its headers and content in base64, lines of 76. */
function part(contentType: string, content: string, disposition?: string): string {
  const encoded = Buffer.from(content, "utf8").toString("base64");
  const lines: string[] = [];
  for (let i = 0; i < encoded.length; i += 76) lines.push(encoded.slice(i, i + 76));
  return `Content-Type: ${contentType}\r\nContent-Transfer-Encoding: base64\r\n${disposition ? `Content-Disposition: ${disposition}\r\n` : ""}\r\n${lines.join("\r\n")}\r\n`;
}

/** Parts as one multipart entity (headers and body), under a boundary no base64 line can contain. */
function multipart(subtype: "alternative" | "mixed", parts: string[]): string {
  const boundary = `=_booking_${crypto.randomUUID().replaceAll("-", "")}`;
  return `Content-Type: multipart/${subtype}; boundary="${boundary}"\r\n\r\n${parts.map((p) => `--${boundary}\r\n${p}`).join("")}--${boundary}--\r\n`;
}

/** `Name <address>` with the name quoted or encoded, or the bare address. */
function mailbox(from: string): string {
  const { email, name } = senderOf(from);
  if (!name) return oneLine(email);
  const shown = /^[\x20-\x7e]*$/.test(name) ? `"${name.replace(/[\\"]/g, "\\$&")}"` : encodedText(name);
  return `${shown} <${oneLine(email)}>`;
}

/** A header value as is when it is printable ASCII of a sane length, else as UTF-8 encoded words of at most 45 bytes each, one per folded line. */
function encodedText(value: string): string {
  const text = oneLine(value);
  if (/^[\x20-\x7e]*$/.test(text) && text.length <= 900) return text;
  const words: string[] = [];
  let chunk = "";
  let bytes = 0;
  for (const char of text) {
    // The character's length in UTF-8, counted as the chunk grows (not the whole chunk measured again per character).
    const code = char.codePointAt(0)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > 45) {
      words.push(chunk);
      chunk = "";
      bytes = 0;
    }
    chunk += char;
    bytes += size;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, "utf8").toString("base64")}?=`).join("\r\n ");
}

/** A header value can never start another header: line breaks become spaces. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ");
}
