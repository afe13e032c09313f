import { html, nothing } from "lit";
import { api, ApiFailure, query } from "../api.ts";
import { ConsolePage, failureText, field, fieldError, when } from "../base.ts";
import { eventTypes, hosts, type BookingView, type EventTypeView, type HostView, type SlotView } from "../model.ts";

const PAGE = 50;

/**
 * The organizer's bookings across event types: filters (event type, status, days, name or email),
 * a list paged by the API's cursor (so thousands page as fast as ten), or a week; one booking in a
 * dialog with its answers, payment, manage link and deliveries, to cancel with a reason or move to
 * a free time.
 */
export class BookingsPage extends ConsolePage {
  static override properties = {
    ...ConsolePage.properties,
    types: { state: true },
    hostId: { attribute: false },
    hostList: { state: true },
    items: { state: true },
    next: { state: true },
    view: { state: true },
    weekStart: { state: true },
    open: { state: true },
    slots: { state: true },
    failure: { state: true },
    loading: { state: true },
  };
  declare types: EventTypeView[];
  /** The signed-in host (a host's session lists only its own bookings), or null for the organizer. */
  declare hostId: number | null;
  declare hostList: HostView[];
  declare items: BookingView[];
  declare next: string | null;
  declare view: "list" | "week";
  declare weekStart: string;
  declare open: BookingView | null;
  declare slots: SlotView[] | null;
  declare failure: ApiFailure | null;
  declare loading: boolean;
  private filters: Record<string, string> = {};
  private cursors: string[] = [];

  constructor() {
    super();
    this.types = [];
    this.hostId = null;
    this.hostList = [];
    this.items = [];
    this.next = null;
    this.view = "list";
    this.weekStart = mondayOf(new Date());
    this.open = null;
    this.slots = null;
    this.failure = null;
    this.loading = true;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // A host's session may not read event types; its bookings carry their titles.
    if (this.hostId === null) {
      void eventTypes(api).then((types) => (this.types = types)).catch(() => undefined);
      void hosts(api).then((list) => (this.hostList = list)).catch(() => undefined);
    }
    void this.load();
  }

  private async load(cursor?: string): Promise<void> {
    this.loading = true;
    try {
      const week = this.view === "week" ? { from: this.weekStart, until: addDays(this.weekStart, 6), limit: 200 } : { limit: PAGE };
      const page = await api<{ items: BookingView[]; next: string | null }>(
        "GET",
        `/admin/reservations${query({ ...this.filters, ...week, cursor, timezone: Intl.DateTimeFormat().resolvedOptions().timeZone })}`,
      );
      this.items = page.items;
      this.next = page.next;
      this.failure = null;
    } catch (error) {
      this.failure = error instanceof ApiFailure ? error : null;
      this.announce(failureText(error), "bad");
    } finally {
      this.loading = false;
    }
  }

  private filter(event: Event): void {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    this.filters = Object.fromEntries([...form.entries()].filter(([, v]) => v !== "").map(([k, v]) => [k, String(v)]));
    this.cursors = [];
    void this.load();
  }

  private async show(b: BookingView): Promise<void> {
    this.slots = null;
    try {
      this.open = await api<BookingView>("GET", `/admin/event-types/${b.eventTypeId}/reservations/${b.uuid}`);
      await this.updateComplete;
      (this.querySelector("dialog") as HTMLDialogElement).showModal();
    } catch (error) {
      this.announce(failureText(error), "bad");
    }
  }

  private close(): void {
    (this.querySelector("dialog") as HTMLDialogElement | null)?.close();
    this.open = null;
  }

  private async cancelOpen(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const b = this.open!;
    const reason = (new FormData(event.target as HTMLFormElement).get("reason") as string) || undefined;
    try {
      const message = await api<string>("POST", `/admin/event-types/${b.eventTypeId}/reservations/${b.uuid}/cancel`, reason ? { reason } : {});
      this.close();
      this.announce(message);
      await this.load(this.cursors.at(-1));
    } catch (error) {
      this.failure = error instanceof ApiFailure ? error : null;
      this.announce(failureText(error), "bad");
    }
  }

  private async findSlots(day: string): Promise<void> {
    const b = this.open!;
    const type = this.types.find((et) => et.id === b.eventTypeId);
    if (!type || !day) return;
    // Free times as visitors see them, read with the event type's public link token.
    const response = await fetch(`/time-slots${query({ from: day, until: day, timezone: Intl.DateTimeFormat().resolvedOptions().timeZone })}`, {
      headers: { authorization: `Bearer ${type.linkToken}` },
    });
    const answer = (await response.json()) as { data?: SlotView[] };
    this.slots = answer.data ?? [];
  }

  private async moveTo(slot: SlotView & { endIso8601?: string }): Promise<void> {
    const b = this.open!;
    try {
      await api("POST", `/admin/event-types/${b.eventTypeId}/reservations/${b.uuid}/reschedule`, { start: slot.start, end: slot.end });
      this.close();
      this.announce(`${this.t.reschedule}: ${when(slot.startIso8601, this.t === undefined ? "en" : document.documentElement.lang)}`);
      await this.load(this.cursors.at(-1));
    } catch (error) {
      this.announce(failureText(error), "bad");
    }
  }

  override render() {
    const t = this.t;
    const lang = document.documentElement.lang || "en";
    return html`<h2 tabindex="-1">${t.bookings}</h2>
      <form class="row" @submit=${this.filter} aria-label=${t.filters}>
        ${this.hostId === null
          ? field("f-type", t.eventType, () => html`<select id="f-type" name="eventTypeId"><option value="">${t.all}</option>
            ${this.types.map((et) => html`<option value=${et.id}>${et.title}</option>`)}</select>`)
          : nothing}
        ${this.hostId === null && this.hostList.length > 1
          ? field("f-host", t.host, () => html`<select id="f-host" name="hostId"><option value="">${t.all}</option>
            ${this.hostList.map((h) => html`<option value=${h.id}>${h.name}</option>`)}</select>`)
          : nothing}
        ${field("f-status", t.status, () => html`<select id="f-status" name="status"><option value="">${t.all}</option>
          ${Object.entries(t.statuses).map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select>`)}
        ${field("f-from", t.from, (a) => html`<input id="f-from" name="from" type="date" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>`, fieldError(this.failure, "from"))}
        ${field("f-until", t.until, (a) => html`<input id="f-until" name="until" type="date" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>`, fieldError(this.failure, "until"))}
        ${field("f-q", t.search, () => html`<input id="f-q" name="q" type="search">`)}
        <div class="field"><button class="primary" type="submit">${t.filters}</button></div>
      </form>
      <div class="row" role="group" aria-label=${t.bookings} style="margin-bottom: 8px">
        <button type="button" aria-pressed=${this.view === "list"} @click=${() => ((this.view = "list"), void this.load())}>${t.list}</button>
        <button type="button" aria-pressed=${this.view === "week"} @click=${() => ((this.view = "week"), void this.load())}>${t.week}</button>
        ${this.view === "week"
          ? html`<button type="button" aria-label=${t.previousWeek} @click=${() => ((this.weekStart = addDays(this.weekStart, -7)), void this.load())}>◀</button>
              <span>${this.weekStart} – ${addDays(this.weekStart, 6)}</span>
              <button type="button" aria-label=${t.nextWeek} @click=${() => ((this.weekStart = addDays(this.weekStart, 7)), void this.load())}>▶</button>`
          : nothing}
      </div>
      ${this.loading ? html`<p>${t.loading}</p>` : this.view === "list" ? this.list(lang) : this.week(lang)}
      ${this.open ? this.dialog(lang) : nothing}`;
  }

  private list(lang: string) {
    const t = this.t;
    if (this.items.length === 0) return html`<p>${t.empty}</p>`;
    return html`<div class="table-wrap"><table>
        <caption class="sr-only">${t.bookings}</caption>
        <thead><tr><th scope="col">${t.when}</th><th scope="col">${t.who}</th><th scope="col">${t.eventType}</th><th scope="col">${t.status}</th><th scope="col"><span class="sr-only">${t.open}</span></th></tr></thead>
        <tbody>${this.items.map(
          (b) => html`<tr>
            <td>${when(b.startIso8601, lang)}</td>
            <td>${b.firstname} ${b.lastname}<br><span class="muted">${b.email}</span></td>
            <td>${b.eventTypeTitle}</td>
            <td><span class="status">${t.statuses[b.status] ?? b.status}</span></td>
            <td><button type="button" @click=${() => this.show(b)} aria-label="${t.open}: ${b.firstname} ${b.lastname}, ${when(b.startIso8601, lang)}">${t.open}</button></td>
          </tr>`,
        )}</tbody></table></div>
      <div class="row" style="margin-top: 8px">
        ${this.cursors.length ? html`<button type="button" @click=${() => ((this.cursors = []), void this.load())}>${t.first}</button>` : nothing}
        ${this.next ? html`<button type="button" @click=${() => (this.cursors.push(this.next!), void this.load(this.next!))}>${t.next}</button>` : nothing}
      </div>`;
  }

  private week(lang: string) {
    const t = this.t;
    const days = Array.from({ length: 7 }, (_, i) => addDays(this.weekStart, i));
    return html`<div class="week">${days.map((day, i) => {
      const those = this.items.filter((b) => localDate(b.startIso8601) === day);
      return html`<section aria-labelledby="wd-${i}"><h3 id="wd-${i}">${t.dayNames[i]} ${day.slice(5)}</h3>
        <ul>${those.map((b) => html`<li><button type="button" @click=${() => this.show(b)}>${new Date(b.startIso8601).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" })} ${b.firstname} ${b.lastname} <span class="muted">(${t.statuses[b.status] ?? b.status})</span></button></li>`)}</ul>
      </section>`;
    })}</div>`;
  }

  private dialog(lang: string) {
    const t = this.t;
    const b = this.open!;
    const live = b.status === "confirmed" || b.status === "held";
    return html`<dialog aria-labelledby="booking-title" @close=${() => (this.open = null)}>
      <h2 id="booking-title">${b.firstname} ${b.lastname} · ${when(b.startIso8601, lang)}</h2>
      <dl class="facts">
        <dt>${t.eventType}</dt><dd>${b.eventTypeTitle}</dd>
        <dt>${t.status}</dt><dd>${t.statuses[b.status] ?? b.status}${b.cancelReason ? ` (${b.cancelReason})` : ""}</dd>
        <dt>${t.email}</dt><dd>${b.email}${b.phone ? ` · ${b.phone}` : ""}</dd>
        <dt>${t.location}</dt><dd>${b.location ? `${t.locationTypes[b.location.type] ?? b.location.type}${b.location.value ? `: ${b.location.value}` : ""}` : "—"}</dd>
        <dt>${t.answers}</dt><dd>${b.customFields.length ? b.customFields.map((f) => html`<div>${f.name ?? f.uuid}: ${Array.isArray(f.value) ? f.value.join(", ") : String(f.value)}</div>`) : "—"}</dd>
        <dt>${t.payment}</dt><dd>${b.payment ? `${(b.payment.amount / 100).toFixed(2)} ${b.payment.currency.toUpperCase()} · ${b.payment.status}${b.payment.refundId ? ` · ${b.payment.refundId}` : ""}` : "—"}</dd>
        <dt>${t.manageLink}</dt><dd>${b.manageUrl ? html`<a href=${b.manageUrl} target="_blank" rel="noopener">${b.manageUrl}</a>` : "—"}</dd>
      </dl>
      <h3>${t.deliveries}</h3>
      ${b.deliveries?.length
        ? html`<ul>${b.deliveries.map((d) => html`<li>${t.channels[d.channel] ?? d.channel} · ${d.kind} · ${t.deliveryStatuses[d.status] ?? d.status} · ${t.attempts}: ${d.attempts}${d.lastError ? html` · <span class="error">${d.lastError}</span>` : nothing}</li>`)}</ul>`
        : html`<p class="muted">—</p>`}
      ${live
        ? html`<h3>${t.reschedule}</h3>
            <div class="row">${field("move-day", t.day, () => html`<input id="move-day" type="date" @change=${(e: Event) => this.findSlots((e.target as HTMLInputElement).value)}>`)}</div>
            ${this.slots === null ? nothing : this.slots.length === 0 ? html`<p>${t.noTimes}</p>`
              : html`<div class="slots" role="group" aria-label=${t.pickTime}>${this.slots.map((s) => html`<button type="button" @click=${() => this.moveTo(s)}>${s.readable_start}</button>`)}</div>`}
            <h3>${t.cancelBooking}</h3>
            <form @submit=${this.cancelOpen}>
              ${field("cancel-reason", t.reason, (a) => html`<textarea id="cancel-reason" name="reason" rows="2" maxlength="1000" aria-describedby=${a.describedby} aria-invalid=${a.invalid} style="width: 100%"></textarea>`, fieldError(this.failure, "reason"))}
              <button class="danger" type="submit">${t.cancelBooking}</button>
            </form>`
        : nothing}
      <p style="margin-top: 16px"><button type="button" @click=${() => this.close()}>${t.close}</button></p>
    </dialog>`;
  }
}

/** YYYY-MM-DD of a local date. */
function isoDay(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

function mondayOf(d: Date): string {
  const day = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  day.setDate(day.getDate() - ((day.getDay() + 6) % 7));
  return isoDay(day);
}

function addDays(iso: string, days: number): string {
  const [y, m, d] = iso.split("-").map(Number);
  return isoDay(new Date(y!, m! - 1, d! + days));
}

const localDate = (isoInstant: string): string => isoDay(new Date(isoInstant));
