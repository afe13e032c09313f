import { html, nothing } from "lit";
import { api, ApiFailure } from "../api.ts";
import { ConsolePage, failureText, field, fieldError, when } from "../base.ts";
import { eventTypes, type EventTypeView } from "../model.ts";

interface SourceView {
  id: number;
  kind: string;
  url: string;
  username: string | null;
  status: string;
  stale: boolean;
  lastSuccessAt: string | null;
  lastError: string | null;
  objects: number;
  busyIntervals: number;
  syncing: boolean;
  writeBookings: boolean;
  writeCalendar: string | null;
}

/**
 * The calendars of an event type's host (its first host, for a team; calendars belong to hosts and
 * block every event type of the host): connect a CalDAV calendar or a feed (tried by the
 * server before it is stored; one that cannot be read is not, and the reason shows at its URL), their
 * sync state, sync now, and the calendar bookings are written into.
 */
export class CalendarsPage extends ConsolePage {
  static override properties = { ...ConsolePage.properties, types: { state: true }, chosen: { state: true }, sources: { state: true }, failure: { state: true }, busy: { state: true }, kind: { state: true } };
  declare types: EventTypeView[];
  declare chosen: number | null;
  declare sources: SourceView[] | null;
  declare failure: ApiFailure | null;
  declare busy: boolean;
  declare kind: string;

  constructor() {
    super();
    this.types = [];
    this.chosen = null;
    this.sources = null;
    this.failure = null;
    this.busy = false;
    this.kind = "caldav";
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void eventTypes(api).then((types) => {
      this.types = types;
      if (types[0]) void this.choose(types[0].id);
    });
  }

  /** The host whose calendars the chosen event type's page shows and connects: its first host. */
  private hostOf(id: number | null): number | null {
    return this.types.find((t) => t.id === id)?.hosts?.[0]?.hostId ?? null;
  }

  private async choose(id: number): Promise<void> {
    this.chosen = id;
    this.sources = null;
    try {
      const hostId = this.hostOf(id);
      this.sources = hostId === null ? [] : await api<SourceView[]>("GET", `/admin/hosts/${hostId}/busy-sources`);
    } catch (error) {
      this.sources = [];
      this.announce(failureText(error), "bad");
    }
  }

  private async connect(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const body: Record<string, string> = { kind: this.kind, url: String(form.get("url") ?? "") };
    if (this.kind === "caldav") {
      if (form.get("username")) body.username = String(form.get("username"));
      if (form.get("password")) body.password = String(form.get("password"));
    }
    this.busy = true;
    try {
      // Tried first, stored only once it can be read (a 422 on url says why not).
      const hostId = this.hostOf(this.chosen);
      const tried = await api<{ objects: number }>("POST", `/admin/hosts/${hostId}/busy-sources/test`, body);
      const source = await api<SourceView>("POST", `/admin/hosts/${hostId}/busy-sources`, body);
      const answer = await api<{ state: string; source: SourceView }>("POST", `/admin/busy-sources/${source.id}/sync`);
      this.failure = null;
      (event.target as HTMLFormElement).reset();
      this.announce(`${this.t.saved} ${tried.objects} · ${answer.source.busyIntervals} busy`);
      await this.choose(this.chosen!);
    } catch (error) {
      this.failure = error instanceof ApiFailure ? error : null;
      this.announce(failureText(error), "bad");
    } finally {
      this.busy = false;
    }
  }

  private async act(source: SourceView, action: "sync" | "remove" | "write"): Promise<void> {
    try {
      if (action === "sync") await api("POST", `/admin/busy-sources/${source.id}/sync`);
      if (action === "remove") await api("DELETE", `/admin/busy-sources/${source.id}`);
      if (action === "write") await api("PUT", `/admin/busy-sources/${source.id}/write-bookings`, {});
      this.announce(this.t.saved);
      await this.choose(this.chosen!);
    } catch (error) {
      this.announce(failureText(error), "bad");
    }
  }

  override render() {
    const t = this.t;
    const lang = document.documentElement.lang || "en";
    return html`<h2 tabindex="-1">${t.calendars}</h2>
      <div class="field"><label for="cal-type">${t.eventType}</label>
        <select id="cal-type" @change=${(e: Event) => this.choose(Number((e.target as HTMLSelectElement).value))}>
          ${this.types.map((et) => html`<option value=${et.id} ?selected=${et.id === this.chosen}>${et.title}</option>`)}
        </select></div>
      ${this.sources === null ? html`<p>${t.loading}</p>` : this.sources.length === 0 ? html`<p>${t.empty}</p>` : html`<div class="table-wrap"><table>
        <caption class="sr-only">${t.calendars}</caption>
        <thead><tr><th scope="col">URL</th><th scope="col">${t.status}</th><th scope="col">${t.lastSync}</th><th scope="col"><span class="sr-only">${t.syncNow}</span></th></tr></thead>
        <tbody>${this.sources.map((s) => html`<tr>
          <td>${s.kind} · ${s.url}${s.writeBookings ? html`<br><strong>${t.writing}</strong>: ${s.writeCalendar}` : nothing}</td>
          <td>${s.status}${s.stale ? " (stale)" : ""} · ${s.busyIntervals} busy${s.lastError ? html`<br><span class="error">${s.lastError}</span>` : nothing}</td>
          <td>${s.lastSuccessAt ? when(s.lastSuccessAt, lang) : "—"}</td>
          <td class="row">
            <button type="button" @click=${() => this.act(s, "sync")} aria-label="${t.syncNow}: ${s.url}">${t.syncNow}</button>
            ${s.kind === "caldav" && !s.writeBookings ? html`<button type="button" @click=${() => this.act(s, "write")} aria-label="${t.writeHere}: ${s.url}">${t.writeHere}</button>` : nothing}
            <button type="button" class="danger" @click=${() => this.act(s, "remove")} aria-label="${t.remove}: ${s.url}">${t.remove}</button>
          </td></tr>`)}</tbody></table></div>`}
      <h3>${t.connect}</h3>
      <form @submit=${this.connect} style="max-width: 560px">
        ${field("cal-kind", this.t.labels.kind, () => html`<select id="cal-kind" @change=${(e: Event) => (this.kind = (e.target as HTMLSelectElement).value)}>
          <option value="caldav" ?selected=${this.kind === "caldav"}>CalDAV</option><option value="ical" ?selected=${this.kind === "ical"}>iCalendar feed</option></select>`)}
        ${field("cal-url", this.t.labels.url, (a) => html`<input id="cal-url" name="url" type="url" required style="width: 100%" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>`, fieldError(this.failure, "url"))}
        ${this.kind === "caldav"
          ? html`${field("cal-user", this.t.labels.username, (a) => html`<input id="cal-user" name="username" autocomplete="off" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>`, fieldError(this.failure, "username"))}
              ${field("cal-password", this.t.labels.password, (a) => html`<input id="cal-password" name="password" type="password" autocomplete="new-password" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>`, fieldError(this.failure, "password"))}`
          : nothing}
        <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? t.loading : t.testAndSave}</button>
      </form>`;
  }
}
