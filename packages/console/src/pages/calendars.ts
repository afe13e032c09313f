import { html, nothing } from "lit";
import { api, type ApiFailure } from "../api.ts";
import { ConsolePage, failureText, field, fieldError, refusalOf, when } from "../base.ts";
import type { BusySourceInput, BusySourceKind } from "@booking/wire";
import { BUSY_SOURCE_KINDS } from "@booking/wire/constants";
import { hosts, type BusySourceView as SourceView, type HostView, type WritableCalendar } from "../model.ts";

/**
 * A host's calendars (they block every event type of the host): the organizer picks the host (the
 * default host first), a host's session sees its own. Connect a CalDAV calendar or a feed (tested
 * by the server first: "Test connection" alone, or tested again and stored with "Test and save";
 * one that cannot be read is not stored, and the reason shows at its URL), each one's sync state and
 * last error, sync now, and the calendar the host's bookings are written into, chosen among the
 * calendars of the host's CalDAV accounts.
 */
export class CalendarsPage extends ConsolePage {
  static override properties = {
    ...ConsolePage.properties,
    hostId: { attribute: false },
    hostList: { state: true },
    chosen: { state: true },
    sources: { state: true },
    writable: { state: true },
    failure: { state: true },
    writeFailure: { state: true },
    busy: { state: true },
    kind: { state: true },
    tested: { state: true },
  };
  /** The signed-in host (a host's session manages only its own calendars), or null for the organizer. */
  declare hostId: number | null;
  declare hostList: HostView[];
  declare chosen: number | null;
  declare sources: SourceView[] | null;
  /** Per CalDAV source: its account's calendars, or why they could not be listed. */
  declare writable: Map<number, WritableCalendar[] | string>;
  declare failure: ApiFailure | null;
  declare writeFailure: ApiFailure | null;
  declare busy: boolean;
  declare kind: BusySourceKind;
  /** What the last "Test connection" found, shown beside the form. */
  declare tested: string | null;

  constructor() {
    super();
    this.hostId = null;
    this.hostList = [];
    this.chosen = null;
    this.sources = null;
    this.writable = new Map();
    this.failure = null;
    this.writeFailure = null;
    this.busy = false;
    this.kind = "caldav";
    this.tested = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.attempt(
      async () => {
        this.hostList = await hosts();
        // A host's session lists only itself; the organizer starts with the default host.
        const first = this.hostList.find((h) => h.id === this.hostId) ?? this.hostList.find((h) => h.isDefault) ?? this.hostList[0];
        if (first) await this.choose(first.id);
        else this.sources = [];
      },
      () => (this.sources = []),
    );
  }

  private async choose(hostId: number): Promise<void> {
    if (hostId !== this.chosen) {
      this.failure = null;
      this.tested = null;
    }
    this.chosen = hostId;
    await this.attempt(
      async () => {
        const sources = await api("GET /admin/hosts/:hostId/busy-sources", { params: { hostId } });
        if (this.chosen !== hostId) return;
        this.sources = sources;
        void this.loadWritable(hostId, sources);
      },
      () => (this.sources = []),
    );
  }

  /** Lists the calendars of the host's CalDAV accounts, each account on its own (one that fails says why). */
  private async loadWritable(hostId: number, sources: SourceView[]): Promise<void> {
    const lists = await Promise.all(
      sources
        .filter((s) => s.kind === "caldav")
        .map(async (s) => {
          try {
            return [s.id, await api("GET /admin/busy-sources/:sourceId/calendars", { params: { sourceId: s.id } })] as const;
          } catch (error) {
            return [s.id, failureText(error)] as const;
          }
        }),
    );
    if (this.chosen === hostId) this.writable = new Map<number, WritableCalendar[] | string>(lists);
  }

  private body(form: HTMLFormElement): BusySourceInput {
    const data = new FormData(form);
    const body: BusySourceInput = { kind: this.kind, url: String(data.get("url") ?? "") };
    if (this.kind === "caldav") {
      if (data.get("username")) body.username = String(data.get("username"));
      if (data.get("password")) body.password = String(data.get("password"));
    }
    return body;
  }

  /** Tries the calendar without storing it: how many events it holds, or the reason at its field. */
  private async test(form: HTMLFormElement): Promise<void> {
    const tried = await api("POST /admin/hosts/:hostId/busy-sources/test", { params: { hostId: this.chosen! }, body: this.body(form) });
    this.failure = null;
    this.tested = `${this.t.connectionWorks} ${tried.objects}`;
  }

  private async testOnly(event: Event): Promise<void> {
    const form = (event.target as HTMLElement).closest("form")!;
    if (!form.reportValidity()) return;
    this.busy = true;
    await this.attempt(
      async () => {
        await this.test(form);
        this.announce(this.tested!);
      },
      (error) => {
        this.tested = null;
        this.failure = refusalOf(error);
      },
    );
    this.busy = false;
  }

  private async connect(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const hostId = this.chosen;
    this.busy = true;
    await this.attempt(
      async () => {
        // Tried first, stored only once it can be read (a 422 on url says why not), then synced.
        await this.test(form);
        const source = await api("POST /admin/hosts/:hostId/busy-sources", { params: { hostId: hostId! }, body: this.body(form) });
        const answer = await api("POST /admin/busy-sources/:sourceId/sync", { params: { sourceId: source.id } });
        form.reset();
        this.kind = "caldav";
        this.announce(`${this.t.saved} ${this.tested} · ${this.t.busyTimes}: ${answer.source.busyIntervals}`);
        this.tested = null;
        await this.choose(hostId!);
      },
      (error) => (this.failure = refusalOf(error)),
    );
    this.busy = false;
  }

  private async act(source: SourceView, action: "sync" | "remove"): Promise<void> {
    if (action === "remove" && !confirm(`${this.t.remove}: ${source.url}?`)) return;
    await this.attempt(async () => {
      if (action === "sync") {
        const answer = await api("POST /admin/busy-sources/:sourceId/sync", { params: { sourceId: source.id } });
        // What the sync did: still going, failed with its reason, or the busy times it found.
        const after = answer.source;
        if (answer.state === "syncing") this.announce(this.t.stillSyncing);
        else if (after.status === "failing") this.announce(`${this.t.syncFailing}: ${after.lastError ?? ""}`, "bad");
        else this.announce(`${this.t.busyTimes}: ${after.busyIntervals}`);
      } else {
        await api("DELETE /admin/busy-sources/:sourceId", { params: { sourceId: source.id } });
        this.announce(this.t.saved);
      }
      await this.choose(this.chosen!);
    });
  }

  /** Gives the chosen host's booking feed a new address; the old one stops working. */
  private async rotateFeed(): Promise<void> {
    const hostId = this.chosen;
    if (hostId === null || !confirm(`${this.t.rotateFeed}?`)) return;
    await this.attempt(async () => {
      const host = await api("POST /admin/hosts/:hostId/feed-token", { params: { hostId } });
      this.hostList = this.hostList.map((h) => (h.id === host.id ? host : h));
      this.announce(this.t.saved);
    });
  }

  /** Writes the host's bookings into the chosen calendar (`source|calendar URL`), or into none. */
  private async chooseWriteBack(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const value = String(new FormData(event.target as HTMLFormElement).get("calendar") ?? "");
    await this.attempt(
      async () => {
        if (value === "") {
          const current = this.sources?.find((s) => s.writeBookings);
          if (current) await api("DELETE /admin/busy-sources/:sourceId/write-bookings", { params: { sourceId: current.id } });
        } else {
          const at = value.indexOf("|");
          await api("PUT /admin/busy-sources/:sourceId/write-bookings", { params: { sourceId: value.slice(0, at) }, body: { calendar: value.slice(at + 1) } });
        }
        this.writeFailure = null;
        this.announce(this.t.saved);
        await this.choose(this.chosen!);
      },
      (error) => (this.writeFailure = refusalOf(error)),
    );
  }

  private statusOf(s: SourceView, lang: string) {
    const t = this.t;
    const state = s.syncing ? t.syncing : s.status === "never" ? t.neverSynced : s.status === "ok" ? t.syncOk : t.syncFailing;
    return html`<span class="status">${state}</span>${s.stale && s.status !== "never" ? html` <span class="status">${t.stale}</span>` : nothing}
      <br>${t.busyTimes}: ${s.busyIntervals} · ${t.calendarObjects}: ${s.objects}
      ${s.lastAttemptAt ? html`<br><span class="muted">${t.lastAttempt}: ${when(s.lastAttemptAt, lang)}</span>` : nothing}
      ${s.lastError ? html`<br><span class="error">${t.error}: ${s.lastError}</span>` : nothing}
      ${s.skippedObjects.length ? html`<details><summary>${t.skipped}: ${s.skippedObjects.length}</summary><ul>${s.skippedObjects.map((o) => html`<li>${o.href}: ${o.reason}</li>`)}</ul></details>` : nothing}`;
  }

  private writeBack() {
    const t = this.t;
    const caldav = (this.sources ?? []).filter((s) => s.kind === "caldav");
    const current = this.sources?.find((s) => s.writeBookings);
    if (caldav.length === 0) return html`<p class="muted">${t.writeBackNeedsCaldav}</p>`;
    const error = fieldError(this.writeFailure, "calendar") || fieldError(this.writeFailure, "kind");
    return html`<p>${current ? html`${t.writing}: <strong>${current.writeCalendar}</strong>` : t.notWritten}</p>
      <form class="row" @submit=${this.chooseWriteBack} aria-label=${t.writeBack}>
        ${field(
          "cal-write",
          t.writeInto,
          (a) => html`<select id="cal-write" name="calendar" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>
          <option value="" ?selected=${!current}>${t.noCalendar}</option>
          ${caldav.map((s) => {
            const list = this.writable.get(s.id);
            return html`<optgroup label=${s.url}>${
              Array.isArray(list)
                ? list.map((c) => html`<option value="${s.id}|${c.url}" ?selected=${c.writing}>${c.name}</option>`)
                : html`<option disabled value="">${list ?? t.loading}</option>`
            }</optgroup>`;
          })}
        </select>`,
          error,
        )}
        <div class="field"><button type="submit">${t.save}</button></div>
      </form>
      ${caldav.map((s) => (typeof this.writable.get(s.id) === "string" ? html`<p class="error">${s.url}: ${this.writable.get(s.id)}</p>` : nothing))}`;
  }

  override render() {
    const t = this.t;
    const lang = document.documentElement.lang || "en";
    const own = this.hostId !== null;
    const host = this.hostList.find((h) => h.id === this.chosen);
    return html`<h2 tabindex="-1">${t.calendars}</h2>
      ${
        own
          ? html`<p class="muted">${t.ownCalendars}</p>`
          : html`<div class="field"><label for="cal-host">${t.host}</label>
          <select id="cal-host" @change=${(e: Event) => this.choose(Number((e.target as HTMLSelectElement).value))}>
            ${this.hostList.map((h) => html`<option value=${h.id} ?selected=${h.id === this.chosen}>${h.name}${h.isDefault ? ` (${t.defaultHost})` : ""}</option>`)}
          </select><p class="help">${t.calendarsHelp}</p></div>`
      }
      ${
        this.sources === null
          ? html`<p>${t.loading}</p>`
          : this.sources.length === 0
            ? html`<p>${t.noCalendars}</p>`
            : html`<div class="table-wrap"><table>
        <caption class="sr-only">${t.calendars}${host ? `: ${host.name}` : ""}</caption>
        <thead><tr><th scope="col">${t.labels.url}</th><th scope="col">${t.status}</th><th scope="col">${t.lastSync}</th><th scope="col"><span class="sr-only">${t.actions}</span></th></tr></thead>
        <tbody>${this.sources.map(
          (s) => html`<tr>
          <td>${s.kind === "caldav" ? "CalDAV" : t.feed} · <span style="overflow-wrap: anywhere">${s.url}</span>${s.writeBookings ? html`<br><strong>${t.writing}</strong>: ${s.writeCalendar}` : nothing}</td>
          <td>${this.statusOf(s, lang)}</td>
          <td>${s.lastSuccessAt ? when(s.lastSuccessAt, lang) : "—"}</td>
          <td><div class="row">
            <button type="button" @click=${() => this.act(s, "sync")} aria-label="${t.syncNow}: ${s.url}">${t.syncNow}</button>
            <button type="button" class="danger" @click=${() => this.act(s, "remove")} aria-label="${t.remove}: ${s.url}">${t.remove}</button>
          </div></td></tr>`,
        )}</tbody></table></div>`
      }
      ${
        host
          ? html`<h3>${t.bookingFeed}</h3>
        ${field("cal-feed", t.bookingFeed, (a) => html`<input id="cal-feed" readonly .value=${host.feedUrl} style="width: 100%" aria-describedby=${a.describedby} @focus=${(e: Event) => (e.target as HTMLInputElement).select()}>`, "", t.bookingFeedHelp)}
        <div class="row"><button type="button" @click=${this.rotateFeed}>${t.rotateFeed}</button></div>`
          : nothing
      }
      <h3>${t.writeBack}</h3>
      ${this.sources === null ? nothing : this.writeBack()}
      <h3>${t.connect}</h3>
      <form @submit=${this.connect} style="max-width: 560px" aria-label=${t.connect}>
        ${field(
          "cal-kind",
          this.t.labels.kind,
          () => html`<select id="cal-kind" @change=${(e: Event) => {
            const chosen = (e.target as HTMLSelectElement).value;
            this.kind = BUSY_SOURCE_KINDS.find((kind) => kind === chosen) ?? "caldav";
            this.tested = null;
          }}>
          <option value="caldav" ?selected=${this.kind === "caldav"}>CalDAV</option><option value="ical" ?selected=${this.kind === "ical"}>${t.feed}</option></select>`,
        )}
        ${field("cal-url", this.t.labels.url, (a) => html`<input id="cal-url" name="url" type="url" required style="width: 100%" aria-describedby=${a.describedby} aria-invalid=${a.invalid} @input=${() => (this.tested = null)}>`, fieldError(this.failure, "url"), this.kind === "caldav" ? t.caldavHelp : t.feedHelp)}
        ${
          this.kind === "caldav"
            ? html`${field("cal-user", this.t.labels.username, (a) => html`<input id="cal-user" name="username" autocomplete="off" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>`, fieldError(this.failure, "username"))}
              ${field("cal-password", this.t.labels.password, (a) => html`<input id="cal-password" name="password" type="password" autocomplete="new-password" aria-describedby=${a.describedby} aria-invalid=${a.invalid}>`, fieldError(this.failure, "password"))}`
            : nothing
        }
        ${this.tested ? html`<p class="notice good">${this.tested}</p>` : nothing}
        <div class="row">
          <button type="button" @click=${this.testOnly} ?disabled=${this.busy || this.chosen === null}>${t.testConnection}</button>
          <button class="primary" type="submit" ?disabled=${this.busy || this.chosen === null}>${this.busy ? t.loading : t.testAndSave}</button>
        </div>
      </form>`;
  }
}
