import { html, nothing } from "lit";
import { api, type ApiFailure } from "../api.ts";
import type { BookingLimits } from "@booking/wire";
import { ConsolePage, errorSummary, refusalOf } from "../base.ts";
import { hosts, type HostView, type ScheduleView } from "../model.ts";
import { limitsFields } from "./limits-fields.ts";

/**
 * The hosts and their schedules. The organizer sees every host and emails a host a one-time link
 * that signs them in to the console as that host; a host sees only themselves. Either adds a
 * schedule (weekly hours that event types share), edited on the availability page, and time off
 * (pages/time-off.ts).
 */
export class HostsPage extends ConsolePage {
  static override properties = {
    ...ConsolePage.properties,
    hostId: { attribute: false },
    items: { state: true },
    schedules: { state: true },
    failure: { state: true },
    limits: { state: true },
  };
  /** Each host's booking limits as edited, until saved. */
  declare limits: Map<number, BookingLimits>;
  /** The signed-in host (a host's session), or null for the organizer. */
  declare hostId: number | null;
  declare items: HostView[] | null;
  declare schedules: Map<number, ScheduleView[]>;
  declare failure: ApiFailure | null;

  constructor() {
    super();
    this.hostId = null;
    this.items = null;
    this.schedules = new Map();
    this.failure = null;
    this.limits = new Map();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    await this.attempt(
      async () => {
        this.items = await hosts();
        const lists = await Promise.all(
          this.items.map(async (h) => [h.id, await api("GET /admin/hosts/:hostId/schedules", { params: { hostId: h.id } })] as const),
        );
        this.schedules = new Map(lists);
        this.limits = new Map(this.items.map((h) => [h.id, { ...h.limits }]));
      },
      () => (this.items = []),
    );
  }

  private async sendLink(h: HostView): Promise<void> {
    await this.attempt(async () => {
      const answer = await api("POST /admin/hosts/:hostId/sign-in-link", { params: { hostId: h.id } });
      this.announce(answer.sent ? `${this.t.signInLinkSent} ${answer.email}` : this.t.signInLinkLogged);
    });
  }

  private async addSchedule(event: SubmitEvent, h: HostView): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const name = String(new FormData(form).get("name") ?? "").trim();
    await this.attempt(
      async () => {
        const weekday = [{ start: "09:00", end: "17:00" }];
        await api("POST /admin/hosts/:hostId/schedules", {
          params: { hostId: h.id },
          body: {
            name,
            availability: { weekly: { monday: weekday, tuesday: weekday, wednesday: weekday, thursday: weekday, friday: weekday }, overrides: [] },
          },
        });
        form.reset();
        this.failure = null;
        this.announce(this.t.saved);
        await this.load();
      },
      (error) => (this.failure = refusalOf(error)),
    );
  }

  private async saveLimits(event: SubmitEvent, h: HostView): Promise<void> {
    event.preventDefault();
    await this.attempt(
      async () => {
        await api("PATCH /admin/hosts/:hostId", { params: { hostId: h.id }, body: { limits: this.limits.get(h.id) ?? {} } });
        this.failure = null;
        this.announce(this.t.saved);
        await this.load();
      },
      (error) => (this.failure = refusalOf(error)),
    );
  }

  override render() {
    const t = this.t;
    const mine = this.hostId !== null;
    return html`<h2 tabindex="-1">${mine ? t.myProfile : t.hosts}</h2>
      ${errorSummary(this.failure, t.fixFields)}
      ${
        this.items === null
          ? html`<p>${t.loading}</p>`
          : this.items.map((h) => {
              const schedules = this.schedules.get(h.id) ?? [];
              return html`<section aria-labelledby="host-${h.id}">
              <h3 id="host-${h.id}">${h.name}</h3>
              <p>${h.email ?? "—"} · ${h.timezone}</p>
              ${mine ? nothing : html`<p><button type="button" ?disabled=${!h.email} @click=${() => this.sendLink(h)} aria-label="${t.sendSignInLink}: ${h.name}">${t.sendSignInLink}</button></p>`}
              <h4>${t.schedules}</h4>
              ${
                schedules.length === 0
                  ? html`<p class="muted">${t.empty}</p>`
                  : html`<ul>${schedules.map((s) => html`<li><a href="#/availability/schedule-${s.id}">${s.name}</a> <span class="muted">(${s.timezone}; ${t.usedBy} ${s.eventTypeIds.length})</span></li>`)}</ul>`
              }
              <form @submit=${(e: SubmitEvent) => this.saveLimits(e, h)} aria-labelledby="host-${h.id}-limits" aria-describedby="host-${h.id}-limits-help" novalidate>
                <h4 id="host-${h.id}-limits">${t.limits}</h4>
                <p class="help" id="host-${h.id}-limits-help">${t.hostLimitsHelp}</p>
                ${limitsFields(
                  t,
                  `host-${h.id}-limits`,
                  this.limits.get(h.id),
                  (kind, value) => (this.limits = new Map(this.limits).set(h.id, { ...this.limits.get(h.id), [kind]: value })),
                  this.failure,
                )}
                <button type="submit">${t.saveLimits}</button>
              </form>
              <form class="row" @submit=${(e: SubmitEvent) => this.addSchedule(e, h)} aria-label="${t.addSchedule}: ${h.name}">
                <div class="field"><label for="new-schedule-${h.id}">${t.scheduleName}</label>
                  <input id="new-schedule-${h.id}" name="name" required maxlength="200"></div>
                <button type="submit">${t.addSchedule}</button>
              </form>
              <console-time-off .t=${t} .host=${h} .colleagues=${this.items!.filter((c) => c.id !== h.id)}></console-time-off>
            </section>`;
            })
      }`;
  }
}
