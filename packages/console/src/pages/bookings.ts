import { html, nothing } from "lit";
import { api, type ApiFailure } from "../api.ts";
import { ConsolePage, field, fieldError, refusalOf, when } from "../base.ts";
import { named } from "../i18n/index.ts";
import type { AvailabilityCheckDialog } from "../availability-check.ts";
import type { AdminBookingPage } from "@booking/wire";
import { eventTypes, hosts, type AdminBookingDetail, type AdminBookingView, type EventTypeView, type HostView, type TimeSlot } from "../model.ts";

const PAGE = 50;
/** A week is read in pages of this many, all of them, however full the week. */
const WEEK_PAGE = 200;

/**
 * The organizer's bookings across event types: filters (event type, status, days, name or email),
 * a list of the upcoming ones (soonest first), the past ones (most recent first) or all, paged by
 * the API's cursor (so thousands page as fast as ten), or a week with all of its bookings; one booking in a
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
    period: { state: true },
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
  declare items: AdminBookingView[];
  declare next: string | null;
  declare view: "list" | "week";
  /** Which bookings the list shows: not yet ended (soonest first), already begun (most recent first), or all (by start). */
  declare period: "upcoming" | "past" | "all";
  declare weekStart: string;
  declare open: AdminBookingDetail | null;
  declare slots: TimeSlot[] | null;
  declare failure: ApiFailure | null;
  declare loading: boolean;
  private filters: Record<string, string> = {};
  /** The cursors of the pages read after the first, down to the one shown (its last): Previous steps back along them. */
  private cursors: string[] = [];

  constructor() {
    super();
    this.types = [];
    this.hostId = null;
    this.hostList = [];
    this.items = [];
    this.next = null;
    this.view = "list";
    this.period = "upcoming";
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
      void eventTypes()
        .then((types) => (this.types = types))
        .catch(() => undefined);
      void hosts()
        .then((list) => (this.hostList = list))
        .catch(() => undefined);
    }
    void this.load();
  }

  private async load(cursor?: string): Promise<void> {
    this.loading = true;
    const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    await this.attempt(
      async () => {
        if (this.view === "week") {
          // Every booking of the week, a page at a time.
          const items: AdminBookingView[] = [];
          let after: string | null = null;
          do {
            const page: AdminBookingPage = await api("GET /admin/reservations", {
              query: { ...this.filters, from: this.weekStart, until: addDays(this.weekStart, 6), limit: WEEK_PAGE, cursor: after, timezone },
            });
            items.push(...page.items);
            after = page.next;
          } while (after);
          this.items = items;
          this.next = null;
        } else {
          const period = this.period === "all" ? {} : { when: this.period, order: this.period === "past" ? ("desc" as const) : ("asc" as const) };
          const page = await api("GET /admin/reservations", { query: { ...this.filters, ...period, limit: PAGE, cursor, timezone } });
          this.items = page.items;
          this.next = page.next;
        }
        this.failure = null;
      },
      (error) => (this.failure = refusalOf(error)),
    );
    this.loading = false;
  }

  private filter(event: Event): void {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    this.filters = Object.fromEntries([...form.entries()].filter(([, v]) => v !== "").map(([k, v]) => [k, String(v)]));
    this.cursors = [];
    void this.load();
  }

  /** Shows the list or the week (the list from its first page). */
  private showView(view: "list" | "week"): void {
    this.view = view;
    this.cursors = [];
    void this.load();
  }

  /** Shows upcoming, past or all bookings, from the first page. */
  private showPeriod(period: "upcoming" | "past" | "all"): void {
    this.period = period;
    this.cursors = [];
    void this.load();
  }

  /** Moves through the list: the next page, the one before, or the first. */
  private async page(to: "next" | "previous" | "first"): Promise<void> {
    if (to === "next" && this.next) this.cursors = [...this.cursors, this.next];
    if (to === "previous") this.cursors = this.cursors.slice(0, -1);
    if (to === "first") this.cursors = [];
    await this.load(this.cursors.at(-1));
    await this.updateComplete;
    // The list was replaced while loading: the focus goes back to the button pressed, or the nearest one that still works.
    const buttons = [...this.querySelectorAll<HTMLButtonElement>("nav.pager button")].filter((b) => !b.disabled);
    (buttons.find((b) => b.dataset.to === to) ?? buttons[0] ?? this.querySelector<HTMLElement>("h2"))?.focus();
  }

  private async show(b: AdminBookingView): Promise<void> {
    this.slots = null;
    await this.attempt(async () => {
      this.open = await api("GET /admin/event-types/:id/reservations/:uuid", { params: { id: b.eventTypeId, uuid: b.uuid } });
      await this.updateComplete;
      (this.querySelector("dialog") as HTMLDialogElement).showModal();
    });
  }

  private close(): void {
    (this.querySelector("dialog") as HTMLDialogElement | null)?.close();
    this.open = null;
  }

  private async cancelOpen(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const b = this.open!;
    const reason = (new FormData(event.target as HTMLFormElement).get("reason") as string) || undefined;
    await this.attempt(
      async () => {
        const message = await api("POST /admin/event-types/:id/reservations/:uuid/cancel", {
          params: { id: b.eventTypeId, uuid: b.uuid },
          body: reason ? { reason } : {},
        });
        this.close();
        this.announce(message);
        await this.load(this.cursors.at(-1));
      },
      (error) => (this.failure = refusalOf(error)),
    );
  }

  private async findSlots(day: string): Promise<void> {
    const b = this.open!;
    if (!day) return;
    // The times the organizer may move it to (the visitors' free times, notice and horizon lifted), as the signed-in console.
    const call = { params: { id: b.eventTypeId, uuid: b.uuid }, query: { from: day, until: day, timezone: Intl.DateTimeFormat().resolvedOptions().timeZone } };
    await this.attempt(
      async () => {
        this.slots = await api("GET /admin/event-types/:id/reservations/:uuid/time-slots", call);
      },
      () => (this.slots = null),
    );
  }

  private async moveTo(slot: TimeSlot): Promise<void> {
    const b = this.open!;
    await this.attempt(async () => {
      await api("POST /admin/event-types/:id/reservations/:uuid/reschedule", {
        params: { id: b.eventTypeId, uuid: b.uuid },
        body: { start: slot.start, end: slot.end },
      });
      this.close();
      this.announce(`${this.t.reschedule}: ${when(slot.startIso8601, document.documentElement.lang || "en")}`);
      await this.load(this.cursors.at(-1));
    });
  }

  override render() {
    const t = this.t;
    const lang = document.documentElement.lang || "en";
    return html`<h2 tabindex="-1">${t.bookings}</h2>
      <form class="row" @submit=${this.filter} aria-label=${t.filters}>
        ${
          this.hostId === null
            ? field(
                "f-type",
                t.eventType,
                () => html`<select id="f-type" name="eventTypeId"><option value="">${t.all}</option>
            ${this.types.map((et) => html`<option value=${et.id}>${et.title}</option>`)}</select>`,
              )
            : nothing
        }
        ${
          this.hostId === null && this.hostList.length > 1
            ? field(
                "f-host",
                t.host,
                () => html`<select id="f-host" name="hostId"><option value="">${t.all}</option>
            ${this.hostList.map((h) => html`<option value=${h.id}>${h.name}</option>`)}</select>`,
              )
            : nothing
        }
        ${field(
          "f-status",
          t.status,
          () => html`<select id="f-status" name="status"><option value="">${t.all}</option>
          ${Object.entries(t.statuses).map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select>`,
        )}
        ${field("f-from", t.from, (a) => html`<input id="f-from" name="from" type="date" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>`, fieldError(this.failure, "from"))}
        ${field("f-until", t.until, (a) => html`<input id="f-until" name="until" type="date" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>`, fieldError(this.failure, "until"))}
        ${field("f-q", t.search, () => html`<input id="f-q" name="q" type="search">`)}
        <div class="field"><button class="primary" type="submit">${t.filters}</button></div>
      </form>
      <div class="row" role="group" aria-label=${t.bookings} style="margin-bottom: 8px">
        <button type="button" aria-pressed=${this.view === "list"} @click=${() => this.showView("list")}>${t.list}</button>
        <button type="button" aria-pressed=${this.view === "week"} @click=${() => this.showView("week")}>${t.week}</button>
        ${
          this.view === "week"
            ? html`<button type="button" aria-label=${t.previousWeek} @click=${() => ((this.weekStart = addDays(this.weekStart, -7)), void this.load())}>◀</button>
              <span>${this.weekStart} – ${addDays(this.weekStart, 6)}</span>
              <button type="button" aria-label=${t.nextWeek} @click=${() => ((this.weekStart = addDays(this.weekStart, 7)), void this.load())}>▶</button>`
            : html`<span role="group" aria-label=${t.period} class="row" style="display: inline-flex; gap: 4px; margin-left: 8px">
              ${(["upcoming", "past", "all"] as const).map((p) => html`<button type="button" aria-pressed=${this.period === p} @click=${() => this.showPeriod(p)}>${p === "all" ? t.all : t[p]}</button>`)}
            </span>`
        }
      </div>
      ${this.loading ? html`<p>${t.loading}</p>` : this.view === "list" ? this.list(lang) : this.week(lang)}
      ${this.open ? this.dialog(lang) : nothing}
      ${this.view === "week" ? this.checkDialog() : nothing}`;
  }

  /** The availability check of the week's days: an event type chosen from the organizer's, or a host's own time. */
  private checkDialog() {
    const first = Number(this.filters.eventTypeId) || this.types[0]?.id || null;
    return html`<console-availability-check .t=${this.t} .eventTypes=${this.types} .eventTypeId=${this.hostId === null ? first : null}
      .hostId=${this.hostId}></console-availability-check>`;
  }

  private checkDay(day: string): void {
    void this.querySelector<AvailabilityCheckDialog>("console-availability-check")?.open(day);
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
      ${this.pager()}`;
  }

  /** First, Previous and Next page, and which page this is; nothing when all fit on one. */
  private pager() {
    const t = this.t;
    if (!this.cursors.length && !this.next) return nothing;
    return html`<nav class="row pager" style="margin-top: 8px; align-items: center" aria-label="${t.bookings}: ${t.page}">
      <button type="button" data-to="first" ?disabled=${!this.cursors.length} @click=${() => this.page("first")}>${t.first}</button>
      <button type="button" data-to="previous" ?disabled=${!this.cursors.length} @click=${() => this.page("previous")}>${t.previous}</button>
      <span>${t.page} ${this.cursors.length + 1}</span>
      <button type="button" data-to="next" ?disabled=${!this.next} @click=${() => this.page("next")}>${t.next}</button>
    </nav>`;
  }

  private week(lang: string) {
    const t = this.t;
    const days = Array.from({ length: 7 }, (_, i) => addDays(this.weekStart, i));
    return html`<div class="week">${days.map((day, i) => {
      const those = this.items.filter((b) => localDate(b.startIso8601) === day);
      return html`<section aria-labelledby="wd-${i}"><h3 id="wd-${i}">${t.dayNames[i]} ${day.slice(5)}</h3>
        <button type="button" class="link" aria-label="${t.checkOpen} ${t.dayNames[i]} ${day}" @click=${() => this.checkDay(day)}>${t.checkOpen}</button>
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
        <dt>${t.location}</dt><dd>${b.location ? `${named(t.locationTypes, b.location.type)}${b.location.value ? `: ${b.location.value}` : ""}` : "—"}</dd>
        <dt>${t.answers}</dt><dd>${b.customFields.length ? b.customFields.map((f) => html`<div>${f.uuid}: ${Array.isArray(f.value) ? f.value.join(", ") : String(f.value)}</div>`) : "—"}</dd>
        <dt>${t.payment}</dt><dd>${b.payment ? `${(b.payment.amount / 100).toFixed(2)} ${b.payment.currency.toUpperCase()} · ${b.payment.status}${b.payment.refundId ? ` · ${b.payment.refundId}` : ""}` : "—"}</dd>
        <dt>${t.manageLink}</dt><dd>${b.manageUrl ? html`<a href=${b.manageUrl} target="_blank" rel="noopener">${b.manageUrl}</a>` : "—"}</dd>
      </dl>
      <h3>${t.deliveries}</h3>
      ${
        b.deliveries?.length
          ? html`<ul>${b.deliveries.map((d) => html`<li>${t.channels[d.channel] ?? d.channel} · ${d.kind} · ${t.deliveryStatuses[d.status] ?? d.status} · ${t.attempts}: ${d.attempts}${d.lastError ? html` · <span class="error">${d.lastError}</span>` : nothing}</li>`)}</ul>`
          : html`<p class="muted">—</p>`
      }
      ${
        live
          ? html`<h3>${t.reschedule}</h3>
            <div class="row">${field("move-day", t.day, (a) => html`<input id="move-day" type="date" aria-describedby=${a.describedby} @change=${(e: Event) => this.findSlots((e.target as HTMLInputElement).value)}>`, "", t.rescheduleHelp)}</div>
            ${
              this.slots === null
                ? nothing
                : this.slots.length === 0
                  ? html`<p>${t.noTimes}</p>`
                  : html`<div class="slots" role="group" aria-label=${t.pickTime}>${this.slots.map((s) => html`<button type="button" @click=${() => this.moveTo(s)}>${s.readable_start}</button>`)}</div>`
            }
            <h3>${t.cancelBooking}</h3>
            <form @submit=${this.cancelOpen}>
              ${field("cancel-reason", t.reason, (a) => html`<textarea id="cancel-reason" name="reason" rows="2" maxlength="1000" aria-describedby=${a.describedby} aria-invalid=${a.invalid} style="width: 100%"></textarea>`, fieldError(this.failure, "reason"))}
              <button class="danger" type="submit">${t.cancelBooking}</button>
            </form>`
          : nothing
      }
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
