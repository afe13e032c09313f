import { html, nothing, type TemplateResult } from "lit";
import { api, type ApiFailure } from "../api.ts";
import { ConsolePage, errorSummary, failureText, field, fieldError, fieldMessages, refusalOf, unsaved } from "../base.ts";
import { CALENDAR_LANGUAGES, type Texts } from "../i18n/index.ts";
import type { EventTypeView, ScheduleView } from "../model.ts";

/** Settings this form edits (availability has its own page), as the admin API names them. */
const EDITABLE = [
  "title", "slug", "description", "timezone", "durationMinutes", "slotIntervalMinutes", "seats", "holdMinutes", "bufferBeforeMinutes", "bufferAfterMinutes",
  "minNoticeMinutes", "horizonDays", "rescheduleNoticeMinutes", "cancelNoticeMinutes", "locations", "customFields", "payment", "webhookUrl", "organizerEmail",
  "reminderMinutes", "locale", "theme", "profileImage", "calendarTitle", "hostName", "compact", "externalBooking", "maxGuests",
] as const;
const NUMBERS = new Set(["durationMinutes", "slotIntervalMinutes", "seats", "holdMinutes", "bufferBeforeMinutes", "bufferAfterMinutes", "minNoticeMinutes", "horizonDays", "rescheduleNoticeMinutes", "cancelNoticeMinutes", "maxGuests"]);
const LOCATION_TYPES = ["video-meet", "phone", "address", "link"];
const FIELD_TYPES = ["text", "textarea", "email", "phone", "number", "select", "multiselect", "checkbox", "date"];
const COLORS = ["primary", "background", "text", "muted", "border", "danger"];
const NEW_DRAFT = { title: "", timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, durationMinutes: 30, slotIntervalMinutes: 30, seats: 1, locations: [{ type: "video-meet", value: null }], customFields: [], locale: { preset: "", startDayOfWeek: "monday", texts: {} }, theme: { mode: "light", borderRadius: "8px", colors: {} } };

/** The label (a key of the texts' `labels`) of each setting with a field of its own, for the list of a refused save's errors. */
const LABEL_OF: Record<string, keyof Texts["labels"]> = {
  title: "title", slug: "slug", description: "description", timezone: "timezone", hostName: "hostName", calendarTitle: "calendarTitle",
  profileImage: "profileImageUrl", organizerEmail: "organizerEmail", webhookUrl: "webhookUrl", durationMinutes: "duration", slotIntervalMinutes: "grid",
  seats: "seats", holdMinutes: "hold", bufferBeforeMinutes: "bufferBefore", bufferAfterMinutes: "bufferAfter", minNoticeMinutes: "minimumNotice",
  horizonDays: "horizon", rescheduleNoticeMinutes: "rescheduleNotice", cancelNoticeMinutes: "cancelNotice", maxGuests: "guestsAtMost",
  reminderMinutes: "reminders", "theme.borderRadius": "cornerRadius", "locale.texts": "texts", "payment.amount": "amount", "payment.currency": "currency",
  "payment.providerAccountId": "stripeAccount",
};

// biome-ignore lint/suspicious/noExplicitAny: the form edits settings by dotted path; each value's type is stated where it is read.
type Draft = Record<string, any>;
type CustomField = { uuid?: string; label: string; name: string; type: string; required?: boolean; options?: string[]; placeholder?: string };

/**
 * Creates or edits an event type: every setting, the custom fields (add, reorder, required,
 * options), and beside the form the real calendar showing the unsaved appearance and texts. Errors
 * of a refused save are shown at their fields; leaving with unsaved changes asks first.
 */
export class EventTypeForm extends ConsolePage {
  static override properties = {
    ...ConsolePage.properties,
    eventTypeId: { attribute: false },
    calendarSrc: { attribute: "calendar-src" },
    draft: { state: true },
    saved: { state: true },
    failure: { state: true },
    busy: { state: true },
    schedules: { state: true },
  };
  /** Schedules of the event type's hosts, by host: each host's hours come from one of them or the event type's own. */
  declare schedules: Map<number, ScheduleView[]>;
  declare eventTypeId: number | null;
  declare calendarSrc: string;
  declare draft: Draft | null;
  declare saved: EventTypeView | null;
  declare failure: ApiFailure | null;
  declare busy: boolean;

  constructor() {
    super();
    this.eventTypeId = null;
    this.calendarSrc = "/embed/booking-calendar.js";
    this.draft = null;
    this.saved = null;
    this.failure = null;
    this.busy = false;
    this.schedules = new Map();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    if (this.eventTypeId === null) {
      this.draft = structuredClone(NEW_DRAFT);
      return;
    }
    await this.attempt(async () => {
      this.saved = await api<EventTypeView>("GET", `/admin/event-types/${this.eventTypeId}`);
      this.draft = pick(this.saved);
      const hostIds = hostsOf(this.saved).map((h) => h.hostId);
      this.schedules = new Map(await Promise.all(hostIds.map(async (id) => [id, await api<ScheduleView[]>("GET", `/admin/hosts/${id}/schedules`).catch(() => [])] as const)));
    });
  }

  /** Per host: a schedule of theirs, or the event type's own hours (kept in the draft's `hosts`, sent with the save). */
  private hoursEditor() {
    if (!this.saved) return nothing;
    const t = this.t;
    const current: HostUse[] = this.draft!.hosts ?? hostsOf(this.saved).map(({ hostId, priority, scheduleId }) => ({ hostId, priority, scheduleId }));
    return html`<fieldset><legend>${t.hoursSource}</legend>
      ${current.map((h, i) => {
        const name = hostsOf(this.saved!).find((x) => x.hostId === h.hostId)?.name ?? String(h.hostId);
        return field(`et-hours-${h.hostId}`, `${t.hoursOf} ${name}`, (a) => html`<select id="et-hours-${h.hostId}" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
          @change=${(e: Event) => {
            const value = (e.target as HTMLSelectElement).value;
            this.set("hosts", current.map((x, j) => (j === i ? { ...x, scheduleId: value === "" ? null : Number(value) } : x)));
          }}>
          <option value="" ?selected=${h.scheduleId === null}>${t.ownHours}</option>
          ${(this.schedules.get(h.hostId) ?? []).map((s) => html`<option value=${s.id} ?selected=${s.id === h.scheduleId}>${s.name}</option>`)}
        </select>`, fieldError(this.failure, "hosts"));
      })}
    </fieldset>`;
  }

  /** Sets one setting (a dotted path) of the draft. */
  private set(path: string, value: unknown): void {
    const draft = structuredClone(this.draft!);
    const keys = path.split(".");
    let at = draft;
    for (const key of keys.slice(0, -1)) at = at[key] ??= {};
    at[keys.at(-1)!] = value;
    this.draft = draft;
    unsaved.dirty = true;
  }

  // biome-ignore lint/suspicious/noExplicitAny: a value at a dotted path of the Draft.
  private get(path: string): any {
    // biome-ignore lint/suspicious/noExplicitAny: a value at a dotted path of the Draft.
    return path.split(".").reduce<any>((at, key) => (at == null ? undefined : at[key]), this.draft);
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    this.busy = true;
    const body = { ...this.draft };
    try {
      if (this.eventTypeId === null) {
        const made = await api<EventTypeView>("POST", "/admin/event-types", body);
        unsaved.dirty = false;
        this.announce(this.t.saved);
        location.hash = `#/event-types/${made.id}`;
      } else {
        this.saved = await api<EventTypeView>("PATCH", `/admin/event-types/${this.eventTypeId}`, body);
        this.draft = pick(this.saved);
        unsaved.dirty = false;
        this.failure = null;
        this.announce(this.t.saved);
      }
    } catch (error) {
      this.failure = refusalOf(error);
      this.announce(Object.keys(this.failure?.errors ?? {}).length ? this.t.fixFields : failureText(error), "bad");
      await this.updateComplete;
      (this.querySelector("[aria-invalid='true']") as HTMLElement | null)?.focus();
    } finally {
      this.busy = false;
    }
  }

  private text(path: string, label: string, options: { type?: string; help?: string; nullable?: boolean; required?: boolean } = {}): TemplateResult {
    const id = `et-${path.replaceAll(".", "-")}`;
    const value = this.get(path);
    return field(id, label, (a) => html`<input id=${id} type=${options.type ?? "text"} .value=${value == null ? "" : String(value)} ?required=${options.required === true}
        aria-describedby=${a.describedby} aria-invalid=${a.invalid} style="width: 100%"
        @input=${(e: Event) => {
          const raw = (e.target as HTMLInputElement).value;
          this.set(path, NUMBERS.has(path) ? (raw === "" ? undefined : Number(raw)) : raw === "" && options.nullable ? null : raw);
        }}>`, fieldError(this.failure, path), options.help);
  }

  private check(path: string, label: string): TemplateResult {
    const id = `et-${path}`;
    return html`<div class="field"><label class="check" for=${id}><input id=${id} type="checkbox" .checked=${this.get(path) === true} @change=${(e: Event) => this.set(path, (e.target as HTMLInputElement).checked)}> ${label}</label></div>`;
  }

  override render() {
    const t = this.t;
    if (!this.draft) return html`<h2 tabindex="-1">${t.eventTypes}</h2><p>${t.loading}</p>`;
    const title = this.eventTypeId === null ? t.newEventType : String(this.saved?.title ?? "");
    const form = html`<form @submit=${this.save} novalidate>
      ${this.failure && !Object.keys(this.failure.errors).length ? html`<p class="notice bad" role="alert">${failureText(this.failure, t)}</p>` : errorSummary(this.failure, t.fixFields, t, (key) => this.labelOf(key))}
      <fieldset><legend>${t.general}</legend>
        ${this.text("title", this.t.labels.title, { required: true })}
        ${this.text("slug", this.t.labels.slug, { nullable: true })}
        ${field("et-description", this.t.labels.description, (a) => html`<textarea id="et-description" rows="3" style="width: 100%" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
          .value=${this.get("description") ?? ""} @input=${(e: Event) => this.set("description", (e.target as HTMLTextAreaElement).value)}></textarea>`, fieldError(this.failure, "description"))}
        <div class="grid">
          ${this.text("timezone", this.t.labels.timezone)}
          ${this.text("hostName", this.t.labels.hostName, { nullable: true })}
          ${this.text("calendarTitle", this.t.labels.calendarTitle, { nullable: true })}
          ${this.text("profileImage", this.t.labels.profileImageUrl, { nullable: true, type: "url" })}
          ${this.text("organizerEmail", this.t.labels.organizerEmail, { nullable: true, type: "email" })}
          ${this.text("webhookUrl", this.t.labels.webhookUrl, { nullable: true, type: "url" })}
        </div>
      </fieldset>
      <fieldset><legend>${t.scheduling}</legend>
        <div class="grid">
          ${this.text("durationMinutes", this.t.labels.duration, { type: "number" })}
          ${this.text("slotIntervalMinutes", this.t.labels.grid, { type: "number" })}
          ${this.text("seats", this.t.labels.seats, { type: "number" })}
          ${this.text("holdMinutes", this.t.labels.hold, { type: "number" })}
          ${this.text("bufferBeforeMinutes", this.t.labels.bufferBefore, { type: "number" })}
          ${this.text("bufferAfterMinutes", this.t.labels.bufferAfter, { type: "number" })}
          ${this.text("minNoticeMinutes", this.t.labels.minimumNotice, { type: "number" })}
          ${this.text("horizonDays", this.t.labels.horizon, { type: "number" })}
          ${this.text("rescheduleNoticeMinutes", this.t.labels.rescheduleNotice, { type: "number" })}
          ${this.text("cancelNoticeMinutes", this.t.labels.cancelNotice, { type: "number" })}
          ${this.text("maxGuests", this.t.labels.guestsAtMost, { type: "number" })}
          ${field("et-reminders", this.t.labels.reminders, (a) => html`<input id="et-reminders" .value=${(this.get("reminderMinutes") ?? []).join(", ")}
            aria-describedby=${a.describedby} aria-invalid=${a.invalid} style="width: 100%"
            @input=${(e: Event) => this.set("reminderMinutes", (e.target as HTMLInputElement).value.split(",").map((s) => s.trim()).filter(Boolean).map(Number))}>`, fieldError(this.failure, "reminderMinutes"))}
        </div>
        ${this.check("compact", this.t.labels.compact)} ${this.check("externalBooking", this.t.labels.externalBooking)}
      </fieldset>
      ${this.hoursEditor()} ${this.locationsEditor()} ${this.paymentEditor()} ${this.appearanceEditor()} ${this.fieldsEditor()}
      <button class="primary" type="submit" ?disabled=${this.busy}>${this.eventTypeId === null ? t.create : t.save}</button>
    </form>`;
    return html`<h2 tabindex="-1">${title || t.newEventType}</h2>
      <p><a href="#/event-types">← ${t.eventTypes}</a></p>
      ${this.saved
        ? html`<div class="split">${form}<div><h3>${t.preview}</h3><p class="muted">${t.previewHelp}</p>
            <console-calendar-preview token=${this.saved.linkToken} calendar-src=${this.calendarSrc} .draft=${this.draft} label=${t.preview}
              .texts=${{ showAs: t.previewShowAs, inline: t.previewInline, popup: t.popup, floating: t.floating, openPopup: t.previewOpenPopup, floatingHelp: t.previewFloatingHelp }}></console-calendar-preview></div></div>`
        : form}`;
  }

  private locationsEditor() {
    const locations = (this.get("locations") ?? []) as { type: string; value: string | null }[];
    const error = fieldError(this.failure, "locations");
    return html`<fieldset aria-describedby=${error ? "et-locations-error" : nothing}><legend>${this.t.location}</legend>
      ${LOCATION_TYPES.map((type) => {
        const on = locations.find((l) => l.type === type);
        return html`<div class="row">
          <label class="check" for="loc-${type}"><input id="loc-${type}" type="checkbox" .checked=${!!on} @change=${(e: Event) => {
            const checked = (e.target as HTMLInputElement).checked;
            this.set("locations", checked ? [...locations, { type, value: null }] : locations.filter((l) => l.type !== type));
          }}> ${this.t.locationTypes[type] ?? type}</label>
          ${on && type !== "video-meet" ? html`<label class="sr-only" for="loc-${type}-value">${this.t.locationTypes[type] ?? type}</label><input id="loc-${type}-value" .value=${on.value ?? ""} placeholder=${this.t.locationTypes[type] ?? type}
            @input=${(e: Event) => this.set("locations", locations.map((l) => (l.type === type ? { type, value: (e.target as HTMLInputElement).value || null } : l)))}>` : nothing}
        </div>`;
      })}
      ${error ? html`<p class="error" id="et-locations-error">${error}</p>` : nothing}
    </fieldset>`;
  }

  private paymentEditor() {
    const payment = this.get("payment") as { amount: number; currency: string; providerAccountId: string } | null;
    const error = fieldMessages(this.failure, this.t).payment?.join(" ") ?? "";
    return html`<fieldset aria-describedby=${error ? "et-payment-error" : nothing}><legend>${this.t.payment}</legend>
      ${error ? html`<p class="error" id="et-payment-error">${error}</p>` : nothing}
      <div class="field"><label class="check" for="et-paid"><input id="et-paid" type="checkbox" .checked=${!!payment}
        @change=${(e: Event) => this.set("payment", (e.target as HTMLInputElement).checked ? { amount: 1000, currency: "eur", providerAccountId: "acct_" } : null)}> ${this.t.labels.cardPayment}</label></div>
      ${payment
        ? html`<div class="grid">
            ${field("et-amount", this.t.labels.amount, (a) => html`<input id="et-amount" type="number" .value=${String(payment.amount)} aria-describedby=${a.describedby} aria-invalid=${a.invalid}
              @input=${(e: Event) => this.set("payment.amount", Number((e.target as HTMLInputElement).value))}>`, fieldError(this.failure, "payment.amount"))}
            ${field("et-currency", this.t.labels.currency, (a) => html`<input id="et-currency" .value=${payment.currency} maxlength="3" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
              @input=${(e: Event) => this.set("payment.currency", (e.target as HTMLInputElement).value)}>`, fieldError(this.failure, "payment.currency"))}
            ${field("et-account", this.t.labels.stripeAccount, (a) => html`<input id="et-account" .value=${payment.providerAccountId} aria-describedby=${a.describedby} aria-invalid=${a.invalid}
              @input=${(e: Event) => this.set("payment.providerAccountId", (e.target as HTMLInputElement).value)}>`, fieldError(this.failure, "payment.providerAccountId"))}
          </div>`
        : nothing}
    </fieldset>`;
  }

  private appearanceEditor() {
    const texts = (this.get("locale.texts") ?? {}) as Record<string, string>;
    return html`<fieldset><legend>${this.t.appearance}</legend>
      <div class="grid">
        ${field("et-mode", this.t.labels.mode, () => html`<select id="et-mode" @change=${(e: Event) => this.set("theme.mode", (e.target as HTMLSelectElement).value)}>
          ${["light", "dark", "auto"].map((m) => html`<option value=${m} ?selected=${this.get("theme.mode") === m}>${this.t.modes[m]}</option>`)}</select>`)}
        ${this.text("theme.borderRadius", this.t.labels.cornerRadius)}
        ${this.languageChoice()}
        ${field("et-week", this.t.labels.weekStarts, () => html`<select id="et-week" @change=${(e: Event) => this.set("locale.startDayOfWeek", (e.target as HTMLSelectElement).value)}>
          ${([["monday", 0], ["sunday", 6]] as const).map(([d, i]) => html`<option value=${d} ?selected=${this.get("locale.startDayOfWeek") === d}>${this.t.dayNames[i]}</option>`)}</select>`)}
        ${COLORS.map((c) => field(`et-color-${c}`, `${this.t.labels.colour}: ${c}`, (a) => html`<input id="et-color-${c}" .value=${this.get(`theme.colors.${c}`) ?? ""} placeholder="#2563eb"
          aria-describedby=${a.describedby} aria-invalid=${a.invalid}
          @input=${(e: Event) => {
            const colors = { ...(this.get("theme.colors") ?? {}) };
            const value = (e.target as HTMLInputElement).value.trim();
            if (value) colors[c] = value;
            else delete colors[c];
            this.set("theme.colors", colors);
          }}>`, fieldError(this.failure, `theme.colors.${c}`)))}
      </div>
      ${field("et-texts", this.t.labels.texts, (a) => html`<textarea id="et-texts" rows="3" style="width: 100%" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
        .value=${Object.entries(texts).map(([k, v]) => `${k}=${v}`).join("\n")}
        @input=${(e: Event) => this.set("locale.texts", Object.fromEntries((e.target as HTMLTextAreaElement).value.split("\n").filter((l) => l.includes("=")).map((l) => [l.slice(0, l.indexOf("=")).trim(), l.slice(l.indexOf("=") + 1)])))}></textarea>`,
        fieldError(this.failure, "locale.texts"))}
    </fieldset>`;
  }

  /** The label of the field a problem's key names (a setting, a colour, the calendar's language), if it has one. */
  private labelOf(key: string): string | undefined {
    const t = this.t;
    if (LABEL_OF[key]) return t.labels[LABEL_OF[key]];
    if (key === "locale.preset") return t.calendarLanguage;
    const colour = /^theme\.colors\.(\w+)$/.exec(key)?.[1];
    return colour ? `${t.labels.colour}: ${colour}` : undefined;
  }

  /**
   * The calendar's language: one of the element's built-in languages, or the visitor's browser (the
   * default, an empty preset). A tag set through the API that is not listed stays offered as it is.
   */
  private languageChoice() {
    const preset = String(this.get("locale.preset") ?? "");
    const choices: [string, string][] = [["", this.t.browserLanguage], ...CALENDAR_LANGUAGES.map(([tag, name]) => [tag, `${name} (${tag})`] as [string, string])];
    if (preset && !choices.some(([tag]) => tag === preset)) choices.push([preset, preset]);
    return field("et-locale-preset", this.t.calendarLanguage, (a) => html`<select id="et-locale-preset" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
      @change=${(e: Event) => this.set("locale.preset", (e.target as HTMLSelectElement).value)}>
      ${choices.map(([tag, name]) => html`<option value=${tag} ?selected=${tag === preset}>${name}</option>`)}</select>`, fieldError(this.failure, "locale.preset", this.t));
  }

  private fieldsEditor() {
    const t = this.t;
    const fields = (this.get("customFields") ?? []) as CustomField[];
    const put = (next: CustomField[]) => this.set("customFields", next.map((f, i) => ({ ...f, order: i })));
    const change = (i: number, patch: Partial<CustomField>) => put(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));
    const move = (i: number, by: number) => {
      const next = [...fields];
      const [moved] = next.splice(i, 1);
      next.splice(i + by, 0, moved!);
      put(next);
    };
    return html`<fieldset><legend>${t.fields}</legend>
      ${fields.map((f, i) => html`<fieldset><legend>${f.label || `#${i + 1}`}</legend>
        <div class="grid">
          ${field(`cf-${i}-label`, this.t.labels.label, (a) => html`<input id="cf-${i}-label" .value=${f.label} aria-describedby=${a.describedby} aria-invalid=${a.invalid} @input=${(e: Event) => change(i, { label: (e.target as HTMLInputElement).value })}>`, fieldError(this.failure, `customFields.${i}.label`))}
          ${field(`cf-${i}-name`, this.t.labels.name, (a) => html`<input id="cf-${i}-name" .value=${f.name} aria-describedby=${a.describedby} aria-invalid=${a.invalid} @input=${(e: Event) => change(i, { name: (e.target as HTMLInputElement).value })}>`, fieldError(this.failure, `customFields.${i}.name`))}
          ${field(`cf-${i}-type`, this.t.labels.type, () => html`<select id="cf-${i}-type" @change=${(e: Event) => {
            const type = (e.target as HTMLSelectElement).value;
            const choice = type === "select" || type === "multiselect";
            const { options: _o, ...rest } = f;
            change(i, choice ? { ...rest, type, options: f.options ?? ["A", "B"] } : { ...rest, type });
          }}>${FIELD_TYPES.map((type) => html`<option value=${type} ?selected=${f.type === type}>${t.fieldTypes[type] ?? type}</option>`)}</select>`)}
          ${f.type === "select" || f.type === "multiselect"
            ? field(`cf-${i}-options`, t.options, (a) => html`<input id="cf-${i}-options" .value=${(f.options ?? []).join(", ")} aria-describedby=${a.describedby} aria-invalid=${a.invalid}
                @input=${(e: Event) => change(i, { options: (e.target as HTMLInputElement).value.split(",").map((s) => s.trim()).filter(Boolean) })}>`, fieldError(this.failure, `customFields.${i}.options`))
            : nothing}
        </div>
        <div class="row">
          <label class="check" for="cf-${i}-required"><input id="cf-${i}-required" type="checkbox" .checked=${f.required === true} @change=${(e: Event) => change(i, { required: (e.target as HTMLInputElement).checked })}> ${t.required}</label>
          <button type="button" ?disabled=${i === 0} @click=${() => move(i, -1)} aria-label="${t.moveUp}: ${f.label}">↑</button>
          <button type="button" ?disabled=${i === fields.length - 1} @click=${() => move(i, 1)} aria-label="${t.moveDown}: ${f.label}">↓</button>
          <button type="button" class="danger" @click=${() => put(fields.filter((_, j) => j !== i))} aria-label="${t.remove}: ${f.label}">${t.remove}</button>
        </div>
      </fieldset>`)}
      <button type="button" @click=${() => put([...fields, { label: "", name: `field_${fields.length + 1}`, type: "text", required: false }])}>${t.addField}</button>
    </fieldset>`;
  }
}

/** The editable settings of an event type as the API answered them. */
type HostUse = { hostId: number; priority: number; scheduleId: number | null };

/** The event type's hosts as the admin API takes them back. */
function hostsOf(view: EventTypeView): (HostUse & { name: string })[] {
  return (view.hosts as (HostUse & { name: string })[]).map((h) => ({ hostId: h.hostId, name: h.name, priority: h.priority, scheduleId: h.scheduleId ?? null }));
}

function pick(view: EventTypeView): Draft {
  const draft: Draft = {};
  for (const key of EDITABLE) if (view[key] !== undefined) draft[key] = structuredClone(view[key]);
  // Stored fields carry their uuid and order; the editor keeps both.
  return draft;
}
