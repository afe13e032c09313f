import { html, nothing } from "lit";
import { api, type ApiFailure } from "../api.ts";
import { ConsolePage, errorSummary, failureText, fieldError, refusalOf, unsaved } from "../base.ts";
import type { AvailabilityRules, TimeRange, Weekday } from "@booking/wire";
import { WEEKDAYS } from "@booking/wire/constants";
import { eventTypes, hosts, type EventTypeView, type HostView, type ScheduleView } from "../model.ts";

type Range = TimeRange;

/** Whose hours the page edits: an event type's own, or a host's schedule that event types share. */
interface Target {
  key: string;
  label: string;
  group: string;
  availability: AvailabilityRules;
  /** Saves the hours, answering them as stored. */
  save: (availability: AvailabilityRules) => Promise<AvailabilityRules>;
  /** A schedule's host with the other hosts, whose time off shows below its hours. */
  host?: { host: HostView; others: HostView[] };
}

/**
 * A range's end as the time input shows it: the end of the day (24:00, which a time input cannot
 * hold) shows as 00:00, midnight, as clocks write it.
 */
const endShown = (end: string): string => (end === "24:00" ? "00:00" : end);

/** An end typed into a time input: 00:00 is the end of the day (a range cannot end at its own start of day). */
const endStored = (end: string): string => (end === "00:00" ? "24:00" : end);

/**
 * Opening hours: an event type's own, or a host's schedule (shared by the event types that use it).
 * Several ranges a day, a day copied to the others, and dates that differ (other hours, or closed).
 * A host's session edits only its own schedules.
 */
export class AvailabilityPage extends ConsolePage {
  static override properties = {
    ...ConsolePage.properties,
    hostId: { attribute: false },
    targets: { state: true },
    chosen: { state: true },
    draft: { state: true },
    failure: { state: true },
    month: { state: true },
    copying: { state: true },
  };
  /** The day whose hours are being copied to the days the organizer ticks, or null. */
  declare copying: Weekday | null;
  /** First day of the month the override calendar shows, YYYY-MM-01. */
  declare month: string;
  /** The signed-in host (a host's session), or null for the organizer. */
  declare hostId: number | null;
  declare targets: Target[];
  declare chosen: string | null;
  declare draft: AvailabilityRules | null;
  declare failure: ApiFailure | null;

  constructor() {
    super();
    this.hostId = null;
    this.targets = [];
    this.chosen = null;
    this.draft = null;
    this.failure = null;
    this.copying = null;
    this.month = `${new Date().toISOString().slice(0, 7)}-01`;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    const t = this.t;
    // A host's session may not read event types: only its schedules.
    const types: EventTypeView[] = this.hostId === null ? await eventTypes().catch(() => []) : [];
    const owners = await hosts().catch(() => []);
    const hostOf = (id: number) => {
      const host = owners.find((h) => h.id === id);
      return host ? { host: { host, others: owners.filter((h) => h.id !== id) } } : {};
    };
    const schedules = (
      await Promise.all(owners.map((h) => api("GET /admin/hosts/:hostId/schedules", { params: { hostId: h.id } }).catch(() => [] as ScheduleView[])))
    ).flat();
    this.targets = [
      ...types.map((et) => ({
        key: `event-type-${et.id}`,
        label: et.title,
        group: t.eventTypes,
        availability: et.availability,
        save: async (availability: AvailabilityRules) =>
          (await api("PATCH /admin/event-types/:id", { params: { id: et.id }, body: { availability } })).availability,
      })),
      ...schedules.map((s) => ({
        key: `schedule-${s.id}`,
        label: `${s.name} (${owners.find((h) => h.id === s.hostId)?.name ?? s.hostId})`,
        group: t.schedules,
        availability: rulesOf(s.availability),
        save: async (availability: AvailabilityRules) =>
          rulesOf((await api("PATCH /admin/schedules/:scheduleId", { params: { scheduleId: s.id }, body: { availability } })).availability),
        ...hostOf(s.hostId),
      })),
    ];
    // `#/availability/schedule-3` opens that schedule.
    const wanted = /#\/availability\/([a-z-]+-\d+)$/.exec(location.hash)?.[1];
    const first = this.targets.find((x) => x.key === wanted) ?? this.targets[0];
    if (first) this.choose(first.key);
  }

  private choose(key: string): void {
    if (unsaved.dirty && !confirm(this.t.unsaved)) {
      // Staying: the dropdown shows again whose hours are being edited.
      const select = this.querySelector<HTMLSelectElement>("#av-type");
      if (select && this.chosen) select.value = this.chosen;
      return;
    }
    const target = this.targets.find((x) => x.key === key);
    this.chosen = key;
    this.copying = null;
    this.draft = structuredClone(target?.availability ?? null);
    this.failure = null;
    unsaved.dirty = false;
  }

  private change(next: AvailabilityRules): void {
    this.draft = next;
    unsaved.dirty = true;
  }

  private setDay(day: Weekday, ranges: Range[]): void {
    this.change({ ...this.draft!, weekly: { ...this.draft!.weekly, [day]: ranges } });
  }

  /** Opens the choice of days to copy a day's hours to, its first box focused. */
  private async startCopy(day: Weekday): Promise<void> {
    this.copying = day;
    await this.updateComplete;
    this.querySelector<HTMLInputElement>("#copy-days input")?.focus();
  }

  /** Copies the day's hours to the ticked days (or closes the choice without copying), then focuses the day's copy button again. */
  private async endCopy(copy: boolean): Promise<void> {
    const day = this.copying!;
    if (copy) {
      const ticked = new Set([...this.querySelectorAll<HTMLInputElement>("#copy-days input:checked")].map((box) => box.value));
      const targets = WEEKDAYS.filter((d) => ticked.has(d));
      if (targets.length)
        this.change({
          ...this.draft!,
          weekly: { ...this.draft!.weekly, ...Object.fromEntries(targets.map((d) => [d, structuredClone(this.draft!.weekly[day] ?? [])])) },
        });
    }
    this.copying = null;
    await this.updateComplete;
    this.querySelector<HTMLElement>(`#copy-${day}`)?.focus();
  }

  /** The days to copy to, each a box (all others ticked to begin with). */
  private copyChoice() {
    const t = this.t;
    const day = this.copying!;
    const name = t.dayNames[WEEKDAYS.indexOf(day)]!;
    return html`<fieldset id="copy-days" @keydown=${(e: KeyboardEvent) => e.key === "Escape" && ((e.preventDefault(), void this.endCopy(false)))}>
      <legend>${t.copyTo} ${name}</legend>
      <div class="row">${WEEKDAYS.map((d, i) => (d === day ? nothing : html`<label class="check"><input type="checkbox" value=${d} checked> ${t.dayNames[i]}</label>`))}</div>
      <div class="row" style="margin-top: 6px">
        <button type="button" class="primary" @click=${() => this.endCopy(true)}>${t.copy}</button>
        <button type="button" @click=${() => this.endCopy(false)}>${t.cancel}</button>
      </div>
    </fieldset>`;
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    try {
      const target = this.targets.find((x) => x.key === this.chosen)!;
      const saved = await target.save(this.draft!);
      this.targets = this.targets.map((x) => (x.key === target.key ? { ...x, availability: saved } : x));
      unsaved.dirty = false;
      this.failure = null;
      this.announce(this.t.saved);
    } catch (error) {
      this.failure = refusalOf(error);
      this.announce(this.failure && Object.keys(this.failure.errors).length ? this.t.fixFields : failureText(error), "bad");
    }
  }

  private ranges(prefix: string, label: string, ranges: Range[], put: (r: Range[]) => void) {
    const t = this.t;
    return html`${ranges.length === 0 ? html`<span class="muted">${t.closedDay}</span>` : nothing}
      ${ranges.map(
        (r, i) => html`<span class="row" style="display: inline-flex; gap: 4px; margin: 2px 8px 2px 0">
        <label class="sr-only" for="${prefix}-${i}-start">${label} ${i + 1} ${t.from}</label>
        <input id="${prefix}-${i}-start" type="time" .value=${r.start} @change=${(e: Event) => put(ranges.map((x, j) => (j === i ? { ...x, start: (e.target as HTMLInputElement).value } : x)))}>
        –
        <label class="sr-only" for="${prefix}-${i}-end">${label} ${i + 1} ${t.until}</label>
        <input id="${prefix}-${i}-end" type="time" .value=${endShown(r.end)} @change=${(e: Event) => put(ranges.map((x, j) => (j === i ? { ...x, end: endStored((e.target as HTMLInputElement).value) } : x)))}>
        <button type="button" aria-label="${t.remove}: ${label} ${r.start}–${r.end}" @click=${() => put(ranges.filter((_, j) => j !== i))}>✕</button>
      </span>`,
      )}
      <button type="button" @click=${() => put([...ranges, { start: "09:00", end: "12:00" }])} aria-label="${t.addRange}: ${label}">+ ${t.addRange}</button>`;
  }

  /** A month of days: a day with an override is pressed; choosing a day without one adds it (closed), with one moves to its row. */
  private monthGrid() {
    const t = this.t;
    const [y, m] = this.month.split("-").map(Number);
    const first = new Date(Date.UTC(y!, m! - 1, 1));
    const days = new Date(Date.UTC(y!, m!, 0)).getUTCDate();
    const lead = (first.getUTCDay() + 6) % 7;
    const overrides = this.draft!.overrides;
    const shift = (by: number) => {
      const d = new Date(Date.UTC(y!, m! - 1 + by, 1));
      this.month = d.toISOString().slice(0, 10);
    };
    const title = new Intl.DateTimeFormat(document.documentElement.lang || "en", { month: "long", year: "numeric", timeZone: "UTC" }).format(first);
    return html`<div class="row" style="align-items: center; margin-bottom: 6px">
        <button type="button" @click=${() => shift(-1)} aria-label="${t.overrides}: −1">◀</button>
        <strong id="ov-month">${title}</strong>
        <button type="button" @click=${() => shift(1)} aria-label="${t.overrides}: +1">▶</button>
      </div>
      <div class="month" role="group" aria-labelledby="ov-month">
        ${t.dayNames.map((name) => html`<span class="muted" aria-hidden="true">${name.slice(0, 2)}</span>`)}
        ${Array.from({ length: lead }, () => html`<span></span>`)}
        ${Array.from({ length: days }, (_, i) => {
          const date = `${this.month.slice(0, 8)}${String(i + 1).padStart(2, "0")}`;
          const index = overrides.findIndex((o) => o.date === date);
          return html`<button type="button" aria-pressed=${index >= 0} aria-label="${date}${index >= 0 ? ` (${t.overrides})` : ""}" @click=${async () => {
            if (index < 0) this.change({ ...this.draft!, overrides: [...overrides, { date, ranges: [] }].sort((a, b) => a.date.localeCompare(b.date)) });
            await this.updateComplete;
            const at = this.draft!.overrides.findIndex((o) => o.date === date);
            (this.querySelector(`#ov-${at}-date`) as HTMLElement | null)?.focus();
          }}>${i + 1}</button>`;
        })}
      </div>`;
  }

  /** The time off of the chosen schedule's host, beside the hours it blocks. */
  private chosenHost() {
    const owner = this.targets.find((x) => x.key === this.chosen)?.host;
    return owner ? html`<console-time-off .t=${this.t} .host=${owner.host} .colleagues=${owner.others}></console-time-off>` : nothing;
  }

  override render() {
    const t = this.t;
    return html`<h2 tabindex="-1">${t.availability}</h2>
      <div class="field"><label for="av-type">${t.hoursOf}</label>
        <select id="av-type" @change=${(e: Event) => this.choose((e.target as HTMLSelectElement).value)}>
          ${[...new Set(this.targets.map((x) => x.group))].map(
            (group) => html`<optgroup label=${group}>
            ${this.targets.filter((x) => x.group === group).map((x) => html`<option value=${x.key} ?selected=${x.key === this.chosen}>${x.label}</option>`)}
          </optgroup>`,
          )}
        </select></div>
      ${
        this.draft
          ? html`<form @submit=${this.save}>
            ${errorSummary(this.failure, t.fixFields)}
            <fieldset><legend>${t.weeklyHours}</legend>
              <div class="table-wrap"><table><tbody>
                ${WEEKDAYS.map((day, i) => {
                  const error = fieldError(this.failure, `availability.weekly.${day}`);
                  return html`<tr>
                    <th scope="row">${t.dayNames[i]}</th>
                    <td>${this.ranges(`wk-${day}`, t.dayNames[i]!, this.draft!.weekly[day] ?? [], (r) => this.setDay(day, r))}
                      ${error ? html`<p class="error">${error}</p>` : nothing}</td>
                    <td><button type="button" id="copy-${day}" aria-expanded=${this.copying === day} aria-controls=${this.copying === day ? "copy-days" : nothing} @click=${() => this.startCopy(day)}
                      aria-label="${t.copyDay}: ${t.dayNames[i]}">${t.copyDay}</button></td>
                  </tr>`;
                })}
              </tbody></table></div>
              ${this.copying ? this.copyChoice() : nothing}
            </fieldset>
            <fieldset><legend>${t.overrides}</legend>
              ${this.monthGrid()}
              ${this.draft.overrides.map(
                (o, i) => html`<div class="row" style="margin-bottom: 6px">
                <label for="ov-${i}-date" class="sr-only">${t.day} ${i + 1}</label>
                <input id="ov-${i}-date" type="date" .value=${o.date} @change=${(e: Event) => this.change({ ...this.draft!, overrides: this.draft!.overrides.map((x, j) => (j === i ? { ...x, date: (e.target as HTMLInputElement).value } : x)) })}>
                ${this.ranges(`ov-${i}`, o.date, o.ranges, (r) => this.change({ ...this.draft!, overrides: this.draft!.overrides.map((x, j) => (j === i ? { ...x, ranges: r } : x)) }))}
                <button type="button" class="danger" @click=${() => this.change({ ...this.draft!, overrides: this.draft!.overrides.filter((_, j) => j !== i) })}>${t.remove}</button>
                ${fieldError(this.failure, `availability.overrides.${i}`) ? html`<p class="error">${fieldError(this.failure, `availability.overrides.${i}`)}</p>` : nothing}
              </div>`,
              )}
              <button type="button" @click=${() => this.change({ ...this.draft!, overrides: [...this.draft!.overrides, { date: new Date().toISOString().slice(0, 10), ranges: [] }] })}>+ ${t.addOverride}</button>
            </fieldset>
            <button class="primary" type="submit">${t.save}</button>
          </form>`
          : html`<p>${t.empty}</p>`
      }
      ${this.chosenHost()}`;
  }
}

/** A schedule's hours with its date overrides always listed (a schedule may have been stored without). */
function rulesOf(availability: ScheduleView["availability"]): AvailabilityRules {
  return { weekly: availability.weekly, overrides: availability.overrides ?? [] };
}
