import { fill } from "@booking/wire/i18n";
import type { AvailabilityCheck, AvailabilityReason } from "@booking/wire";
import { html, nothing } from "lit";
import { api } from "./api.ts";
import { ConsolePage, field, when } from "./base.ts";
import { named } from "./i18n/index.ts";

/**
 * `<console-availability-check>`: "why is this time not offered?" in a dialog. `open(date, time, zone)`
 * shows it for a day (a greyed-out day of the preview, a day of the bookings' week) and asks the
 * server's availability check (`GET /admin/event-types/{id}/availability-check`, or the host's own
 * `GET /admin/hosts/{hostId}/availability-check` for a host's session), whose reasons come from the
 * steps that build the slot page; each reason is worded in the console's language by its code.
 */
export class AvailabilityCheckDialog extends ConsolePage {
  static override properties = {
    ...ConsolePage.properties,
    eventTypeId: { attribute: false },
    hostId: { attribute: false },
    eventTypes: { attribute: false },
    date: { state: true },
    time: { state: true },
    zone: { state: true },
    answers: { state: true },
    busy: { state: true },
  };
  /** The event type checked; null with `hostId`: every event type of that host. */
  declare eventTypeId: number | null;
  /** A host's session checks its own host. */
  declare hostId: number | null;
  /** Event types to choose from (the bookings' week); empty: `eventTypeId` only. */
  declare eventTypes: { id: number; title: string }[];
  declare date: string;
  declare time: string;
  declare zone: string;
  declare answers: AvailabilityCheck[] | null;
  declare busy: boolean;

  constructor() {
    super();
    this.eventTypeId = null;
    this.hostId = null;
    this.eventTypes = [];
    this.date = "";
    this.time = "10:00";
    this.zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    this.answers = null;
    this.busy = false;
  }

  /** Shows the dialog for `date` (YYYY-MM-DD) at `time` (HH:MM) read in `zone`, and checks it at once. */
  async open(date: string, time = this.time, zone = this.zone): Promise<void> {
    this.date = date;
    this.time = time;
    this.zone = zone;
    this.answers = null;
    await this.updateComplete;
    const dialog = this.querySelector("dialog");
    if (dialog && !dialog.open) dialog.showModal();
    await this.check();
  }

  private async check(event?: Event): Promise<void> {
    event?.preventDefault();
    if (!this.date || !/^\d{2}:\d{2}$/.test(this.time)) return;
    const start = new Date(zonedInstant(this.date, this.time, this.zone)).toISOString();
    this.busy = true;
    await this.attempt(
      async () => {
        if (this.eventTypeId !== null) {
          this.answers = [await api("GET /admin/event-types/:id/availability-check", { params: { id: this.eventTypeId }, query: { start } })];
        } else if (this.hostId !== null) {
          this.answers = (await api("GET /admin/hosts/:hostId/availability-check", { params: { hostId: this.hostId }, query: { start } })).eventTypes;
        }
      },
      () => (this.answers = null),
    );
    this.busy = false;
  }

  /** One reason in words: the console's text for its code with the details filled in, else the server's English message. */
  private reasonText(reason: AvailabilityReason, hosts: Map<number, string>): string {
    const t = this.t;
    const lang = document.documentElement.lang || "en";
    const host = reason.hostId === undefined ? "" : (hosts.get(reason.hostId) ?? "");
    const key =
      reason.code === "host_busy" && reason.eventType
        ? "host_busy_named"
        : reason.code === "calendar_busy" && reason.title
          ? "calendar_busy_named"
          : reason.code;
    const text = named(t.reasons, key);
    if (text === key) return reason.message;
    return fill(text, {
      host,
      schedule: reason.schedule ? (reason.schedule.id === null ? t.ownHours : reason.schedule.name) : "",
      timezone: reason.timezone ?? "",
      from: reason.bookableFrom ? when(reason.bookableFrom, lang) : reason.busyFrom ? when(reason.busyFrom, lang) : "",
      until: reason.bookableUntil ? when(reason.bookableUntil, lang) : reason.busyUntil ? when(reason.busyUntil, lang) : "",
      eventType: reason.eventType?.title ?? "",
      title: reason.title ?? "",
      seats: String(reason.seats ?? ""),
    });
  }

  private result(check: AvailabilityCheck) {
    const t = this.t;
    const hosts = new Map(check.hosts.map((h) => [h.hostId, h.name]));
    const list = (reasons: AvailabilityReason[]) => html`<ul>${reasons.map((r) => html`<li data-code=${r.code}>${this.reasonText(r, hosts)}</li>`)}</ul>`;
    const team = check.hosts.length > 1;
    return html`<section class="check-result" aria-label=${check.title}>
      <h3>${check.title}</h3>
      <p class=${check.bookable ? "notice good" : "notice bad"}>${check.bookable ? t.checkBookable : t.checkNotBookable}</p>
      ${team ? html`<ul>${check.hosts.map((h) => html`<li><strong>${h.name}</strong>: ${h.free ? t.checkHostFree : list(h.reasons)}</li>`)}</ul>` : list(check.reasons)}
    </section>`;
  }

  override render() {
    const t = this.t;
    return html`<dialog aria-labelledby="check-title" @close=${() => (this.answers = null)}>
      <h2 id="check-title">${t.checkTitle}</h2>
      <form class="row" @submit=${this.check}>
        ${
          this.eventTypes.length > 1
            ? field(
                "check-type",
                t.eventType,
                () => html`<select id="check-type" @change=${(e: Event) => (this.eventTypeId = Number((e.target as HTMLSelectElement).value))}>
              ${this.eventTypes.map((et) => html`<option value=${et.id} ?selected=${et.id === this.eventTypeId}>${et.title}</option>`)}</select>`,
              )
            : nothing
        }
        ${field("check-day", t.day, () => html`<input id="check-day" type="date" .value=${this.date} @change=${(e: Event) => (this.date = (e.target as HTMLInputElement).value)}>`)}
        ${field("check-time", t.checkTime, () => html`<input id="check-time" type="time" .value=${this.time} @change=${(e: Event) => (this.time = (e.target as HTMLInputElement).value)}>`, "", `${t.checkZone}: ${this.zone}`)}
        <div class="field"><button class="primary" type="submit" ?disabled=${this.busy}>${t.checkButton}</button></div>
      </form>
      <div aria-live="polite">${this.busy ? html`<p>${t.loading}</p>` : this.answers ? this.answers.map((a) => this.result(a)) : nothing}</div>
      <p style="margin-top: 16px"><button type="button" @click=${() => this.querySelector("dialog")?.close()}>${t.close}</button></p>
    </dialog>`;
  }
}

/** The instant a wall-clock `date` `time` names in `zone` (a skipped time moves forward by the gap, as browsers do). */
export function zonedInstant(date: string, time: string, zone: string): number {
  const [y, mo, d] = date.split("-").map(Number) as [number, number, number];
  const [h, mi] = time.split(":").map(Number) as [number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  let instant = wall - offsetAt(wall, zone);
  instant = wall - offsetAt(instant, zone);
  return instant;
}

/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(ms: number, zone: string): number {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(new Date(ms))) if (p.type !== "literal") parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(ms / 1000) * 1000;
}
