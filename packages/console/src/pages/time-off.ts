import { fill } from "@booking/wire/i18n";
import { html, nothing } from "lit";
import { api, type ApiFailure } from "../api.ts";
import { ConsolePage, errorSummary, field, fieldError, refusalOf, when } from "../base.ts";
import type { HostView } from "../model.ts";
import type { TimeOffView } from "@booking/wire";

/**
 * A host's time off on the hosts page: what is planned (days, or a range set through the API),
 * with the colleague who takes the host's personal bookings meanwhile and the visitors' note; a
 * form adds whole days, a button removes one. The colleague is chosen among the other hosts the
 * session sees (none in a host's own session, which names a colleague through the API).
 */
export class TimeOffSection extends ConsolePage {
  static override properties = {
    ...ConsolePage.properties,
    host: { attribute: false },
    colleagues: { attribute: false },
    items: { state: true },
    failure: { state: true },
  };
  declare host: HostView;
  declare colleagues: HostView[];
  declare items: TimeOffView[] | null;
  declare failure: ApiFailure | null;

  constructor() {
    super();
    this.colleagues = [];
    this.items = null;
    this.failure = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    // Shown for another host (the availability page's choice changed): that host's time off.
    if (changed.has("host") && changed.get("host") !== undefined && (changed.get("host") as HostView).id !== this.host.id) {
      this.items = null;
      this.failure = null;
      void this.load();
    }
  }

  private async load(): Promise<void> {
    await this.attempt(
      async () => {
        this.items = await api("GET /admin/hosts/:hostId/time-off", { params: { hostId: this.host.id } });
      },
      () => (this.items = []),
    );
  }

  private async add(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const colleague = text("colleague");
    await this.attempt(
      async () => {
        await api("POST /admin/hosts/:hostId/time-off", {
          params: { hostId: this.host.id },
          body: {
            startDate: text("startDate"),
            endDate: text("endDate") || text("startDate"),
            note: text("note") || null,
            colleagueHostId: colleague ? Number(colleague) : null,
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

  private async removeTimeOff(item: TimeOffView): Promise<void> {
    await this.attempt(async () => {
      await api("DELETE /admin/hosts/:hostId/time-off/:timeOffId", { params: { hostId: this.host.id, timeOffId: item.id } });
      this.announce(this.t.saved);
      await this.load();
    });
  }

  /** When a time off is, in the console's language: its days, or its range in the viewer's zone. */
  private whenText(item: TimeOffView): string {
    const language = document.documentElement.lang || "en";
    const day = (date: string) => new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" }).format(Date.parse(date));
    return item.startDate && item.endDate
      ? fill(this.t.timeOffRange, { from: day(item.startDate), until: day(item.endDate) })
      : fill(this.t.timeOffRange, { from: when(item.start, language), until: when(item.end, language) });
  }

  override render() {
    const t = this.t;
    const id = (name: string) => `time-off-${name}-${this.host.id}`;
    const error = (name: string) => fieldError(this.failure, name, t);
    return html`<h4>${t.timeOff}</h4>
      ${
        this.items === null
          ? html`<p>${t.loading}</p>`
          : this.items.length === 0
            ? html`<p class="muted">${t.timeOffNone}</p>`
            : html`<ul>${this.items.map(
                (item) => html`<li>
                  ${this.whenText(item)}${item.colleagueName ? html` · ${fill(t.timeOffCovered, { name: item.colleagueName })}` : nothing}${item.note ? html` · <span class="muted">${item.note}</span>` : nothing}
                  <button type="button" class="danger" @click=${() => this.removeTimeOff(item)} aria-label="${t.removeTimeOff}: ${this.whenText(item)}">${t.removeTimeOff}</button>
                </li>`,
              )}</ul>`
      }
      ${errorSummary(this.failure, t.fixFields)}
      <form class="row" @submit=${(e: SubmitEvent) => this.add(e)} aria-label="${t.addTimeOff}: ${this.host.name}">
        ${field(
          id("from"),
          t.timeOffFrom,
          (a) => html`<input id=${id("from")} name="startDate" type="date" required aria-describedby=${a.describedby} aria-invalid=${a.invalid}>`,
          error("startDate"),
        )}
        ${field(
          id("until"),
          t.timeOffUntil,
          (a) => html`<input id=${id("until")} name="endDate" type="date" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>`,
          error("endDate"),
        )}
        ${field(
          id("note"),
          t.timeOffNote,
          (a) => html`<input id=${id("note")} name="note" maxlength="500" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>`,
          error("note"),
        )}
        ${
          this.colleagues.length === 0
            ? nothing
            : field(
                id("colleague"),
                t.timeOffColleague,
                (a) => html`<select id=${id("colleague")} name="colleague" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>
                  <option value="">${t.timeOffNobody}</option>
                  ${this.colleagues.map((c) => html`<option value=${c.id}>${c.name}</option>`)}
                </select>`,
                error("colleagueHostId"),
              )
        }
        <button type="submit">${t.addTimeOff}</button>
      </form>
      <p class="help">${t.timeOffHelp}</p>`;
  }
}
