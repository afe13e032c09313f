import { html, nothing, type TemplateResult } from "lit";
import { api, type ApiFailure } from "../api.ts";
import { ConsolePage, errorSummary, failureText, field, fieldError, fieldMessages, refusalOf, unsaved } from "../base.ts";
import { CALENDAR_LANGUAGES, type Texts } from "../i18n/index.ts";
import type { EventTypeHostInput, EventTypePatch, EventTypeView } from "@booking/wire";
import { CUSTOM_FIELD_TYPES, LOCATION_TYPES, THEME_COLOR_KEYS, THEME_MODES, type CustomFieldType } from "@booking/wire/constants";
import type { ScheduleView } from "../model.ts";

/** Settings this form edits (availability has its own page), as the admin API names them. */
const EDITABLE = [
  "title", "slug", "description", "timezone", "durationMinutes", "slotIntervalMinutes", "seats", "holdMinutes", "bufferBeforeMinutes", "bufferAfterMinutes",
  "minNoticeMinutes", "horizonDays", "rescheduleNoticeMinutes", "cancelNoticeMinutes", "locations", "customFields", "payment", "webhookUrl", "organizerEmail",
  "reminderMinutes", "locale", "theme", "profileImage", "calendarTitle", "hostName", "compact", "externalBooking", "maxGuests",
] as const;
/** The settings this form edits, as the admin API takes them (any subset: `EventTypePatch`). */
type Draft = Pick<EventTypePatch, (typeof EDITABLE)[number] | "hosts">;
/** Settings edited as one line of text. */
type TextSetting = "title" | "slug" | "timezone" | "hostName" | "calendarTitle" | "profileImage" | "organizerEmail" | "webhookUrl";
/** Settings edited as a whole number. */
type NumberSetting = "durationMinutes" | "slotIntervalMinutes" | "seats" | "holdMinutes" | "bufferBeforeMinutes" | "bufferAfterMinutes" | "minNoticeMinutes" | "horizonDays" | "rescheduleNoticeMinutes" | "cancelNoticeMinutes" | "maxGuests";
/** Settings that are null when left empty. */
const NULLABLE = new Set<TextSetting>(["slug", "hostName", "calendarTitle", "profileImage", "organizerEmail", "webhookUrl"]);
const NEW_DRAFT: Draft = { title: "", timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, durationMinutes: 30, slotIntervalMinutes: 30, seats: 1, locations: [{ type: "video-meet", value: null }], customFields: [], locale: { preset: "", startDayOfWeek: "monday", texts: {} }, theme: { mode: "light", borderRadius: "8px", colors: {} } };

/** The label (a key of the texts' `labels`) of each setting with a field of its own, for the list of a refused save's errors. */
const LABEL_OF: Record<string, keyof Texts["labels"]> = {
  title: "title", slug: "slug", description: "description", timezone: "timezone", hostName: "hostName", calendarTitle: "calendarTitle",
  profileImage: "profileImageUrl", organizerEmail: "organizerEmail", webhookUrl: "webhookUrl", durationMinutes: "duration", slotIntervalMinutes: "grid",
  seats: "seats", holdMinutes: "hold", bufferBeforeMinutes: "bufferBefore", bufferAfterMinutes: "bufferAfter", minNoticeMinutes: "minimumNotice",
  horizonDays: "horizon", rescheduleNoticeMinutes: "rescheduleNotice", cancelNoticeMinutes: "cancelNotice", maxGuests: "guestsAtMost",
  reminderMinutes: "reminders", "theme.borderRadius": "cornerRadius", "locale.texts": "texts", "payment.amount": "amount", "payment.currency": "currency",
  "payment.providerAccountId": "stripeAccount",
};

type CustomField = NonNullable<Draft["customFields"]>[number];
type Theme = NonNullable<Draft["theme"]>;
type Locale = NonNullable<Draft["locale"]>;
type Payment = NonNullable<Draft["payment"]>;

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
    const id = this.eventTypeId;
    if (id === null) {
      this.draft = structuredClone(NEW_DRAFT);
      return;
    }
    await this.attempt(async () => {
      this.saved = await api("GET /admin/event-types/:id", { params: { id } });
      this.draft = pick(this.saved);
      const hostIds = hostsOf(this.saved).map((h) => h.hostId);
      this.schedules = new Map(await Promise.all(hostIds.map(async (hostId) => [hostId, await api("GET /admin/hosts/:hostId/schedules", { params: { hostId } }).catch(() => [] as ScheduleView[])] as const)));
    });
  }

  /** Per host: a schedule of theirs, or the event type's own hours (kept in the draft's `hosts`, sent with the save). */
  private hoursEditor() {
    if (!this.saved) return nothing;
    const t = this.t;
    const current: EventTypeHostInput[] = this.draft!.hosts ?? hostsOf(this.saved).map(({ hostId, priority, scheduleId }) => ({ hostId, priority, scheduleId }));
    return html`<fieldset><legend>${t.hoursSource}</legend>
      ${current.map((h, i) => {
        const name = hostsOf(this.saved!).find((x) => x.hostId === h.hostId)?.name ?? String(h.hostId);
        return field(`et-hours-${h.hostId}`, `${t.hoursOf} ${name}`, (a) => html`<select id="et-hours-${h.hostId}" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
          @change=${(e: Event) => {
            const value = (e.target as HTMLSelectElement).value;
            this.set("hosts", current.map((x, j) => (j === i ? { ...x, scheduleId: value === "" ? null : Number(value) } : x)));
          }}>
          <option value="" ?selected=${(h.scheduleId ?? null) === null}>${t.ownHours}</option>
          ${(this.schedules.get(h.hostId) ?? []).map((s) => html`<option value=${s.id} ?selected=${s.id === h.scheduleId}>${s.name}</option>`)}
        </select>`, fieldError(this.failure, "hosts"));
      })}
    </fieldset>`;
  }

  /** Sets one setting of the draft. */
  private set<K extends keyof Draft>(key: K, value: Draft[K]): void {
    this.draft = { ...this.draft, [key]: value };
    unsaved.dirty = true;
  }

  /** Changes some of the theme, keeping the rest. */
  private setTheme(change: Partial<Theme>): void {
    this.set("theme", { ...this.draft?.theme, ...change });
  }

  /** Changes some of the calendar's language settings, keeping the rest. */
  private setLocale(change: Partial<Locale>): void {
    this.set("locale", { ...this.draft?.locale, ...change });
  }

  /** Changes some of the card payment settings (of a paid event type). */
  private setPayment(change: Partial<Payment>): void {
    const payment = this.draft?.payment;
    if (payment) this.set("payment", { ...payment, ...change });
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    this.busy = true;
    const body: Draft = { ...this.draft };
    try {
      if (this.eventTypeId === null) {
        const made = await api("POST /admin/event-types", { body: { ...body, title: body.title ?? "" } });
        unsaved.dirty = false;
        this.announce(this.t.saved);
        location.hash = `#/event-types/${made.id}`;
      } else {
        this.saved = await api("PATCH /admin/event-types/:id", { params: { id: this.eventTypeId }, body });
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

  /** An input of one setting: its error key (`path`), label, value, and what typing into it does. */
  private input(path: string, label: string, value: string | number | null | undefined, update: (raw: string) => void, options: { type?: string; help?: string; required?: boolean } = {}): TemplateResult {
    const id = `et-${path.replaceAll(".", "-")}`;
    return field(id, label, (a) => html`<input id=${id} type=${options.type ?? "text"} .value=${value == null ? "" : String(value)} ?required=${options.required === true}
        aria-describedby=${a.describedby} aria-invalid=${a.invalid} style="width: 100%"
        @input=${(e: Event) => update((e.target as HTMLInputElement).value)}>`, fieldError(this.failure, path), options.help);
  }

  /** A setting edited as text; an empty optional one is null. */
  private text(key: TextSetting, label: string, options: { type?: string; required?: boolean } = {}): TemplateResult {
    return this.input(key, label, this.draft?.[key], (raw) => {
      if (key === "title" || key === "timezone") this.set(key, raw);
      else this.set(key, raw === "" && NULLABLE.has(key) ? null : raw);
    }, options);
  }

  /** A setting edited as a whole number; empty leaves it out of the save. */
  private number(key: NumberSetting, label: string): TemplateResult {
    return this.input(key, label, this.draft?.[key], (raw) => this.set(key, raw === "" ? undefined : Number(raw)), { type: "number" });
  }

  private check(key: "compact" | "externalBooking", label: string): TemplateResult {
    const id = `et-${key}`;
    return html`<div class="field"><label class="check" for=${id}><input id=${id} type="checkbox" .checked=${this.draft?.[key] === true} @change=${(e: Event) => this.set(key, (e.target as HTMLInputElement).checked)}> ${label}</label></div>`;
  }

  override render() {
    const t = this.t;
    if (!this.draft) return html`<h2 tabindex="-1">${t.eventTypes}</h2><p>${t.loading}</p>`;
    const title = this.eventTypeId === null ? t.newEventType : (this.saved?.title ?? "");
    const form = html`<form @submit=${this.save} novalidate>
      ${this.failure && !Object.keys(this.failure.errors).length ? html`<p class="notice bad" role="alert">${failureText(this.failure, t)}</p>` : errorSummary(this.failure, t.fixFields, t, (key) => this.labelOf(key))}
      <fieldset><legend>${t.general}</legend>
        ${this.text("title", this.t.labels.title, { required: true })}
        ${this.text("slug", this.t.labels.slug)}
        ${field("et-description", this.t.labels.description, (a) => html`<textarea id="et-description" rows="3" style="width: 100%" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
          .value=${this.draft?.description ?? ""} @input=${(e: Event) => this.set("description", (e.target as HTMLTextAreaElement).value)}></textarea>`, fieldError(this.failure, "description"))}
        <div class="grid">
          ${this.text("timezone", this.t.labels.timezone)}
          ${this.text("hostName", this.t.labels.hostName)}
          ${this.text("calendarTitle", this.t.labels.calendarTitle)}
          ${this.text("profileImage", this.t.labels.profileImageUrl, { type: "url" })}
          ${this.text("organizerEmail", this.t.labels.organizerEmail, { type: "email" })}
          ${this.text("webhookUrl", this.t.labels.webhookUrl, { type: "url" })}
        </div>
      </fieldset>
      <fieldset><legend>${t.scheduling}</legend>
        <div class="grid">
          ${this.number("durationMinutes", this.t.labels.duration)}
          ${this.number("slotIntervalMinutes", this.t.labels.grid)}
          ${this.number("seats", this.t.labels.seats)}
          ${this.number("holdMinutes", this.t.labels.hold)}
          ${this.number("bufferBeforeMinutes", this.t.labels.bufferBefore)}
          ${this.number("bufferAfterMinutes", this.t.labels.bufferAfter)}
          ${this.number("minNoticeMinutes", this.t.labels.minimumNotice)}
          ${this.number("horizonDays", this.t.labels.horizon)}
          ${this.number("rescheduleNoticeMinutes", this.t.labels.rescheduleNotice)}
          ${this.number("cancelNoticeMinutes", this.t.labels.cancelNotice)}
          ${this.number("maxGuests", this.t.labels.guestsAtMost)}
          ${field("et-reminders", this.t.labels.reminders, (a) => html`<input id="et-reminders" .value=${(this.draft?.reminderMinutes ?? []).join(", ")}
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
    const locations = this.draft?.locations ?? [];
    const error = fieldError(this.failure, "locations");
    return html`<fieldset aria-describedby=${error ? "et-locations-error" : nothing}><legend>${this.t.location}</legend>
      ${LOCATION_TYPES.map((type) => {
        const on = locations.find((l) => l.type === type);
        return html`<div class="row">
          <label class="check" for="loc-${type}"><input id="loc-${type}" type="checkbox" .checked=${!!on} @change=${(e: Event) => {
            const checked = (e.target as HTMLInputElement).checked;
            this.set("locations", checked ? [...locations, { type, value: null }] : locations.filter((l) => l.type !== type));
          }}> ${this.t.locationTypes[type]}</label>
          ${on && type !== "video-meet" ? html`<label class="sr-only" for="loc-${type}-value">${this.t.locationTypes[type]}</label><input id="loc-${type}-value" .value=${on.value ?? ""} placeholder=${this.t.locationTypes[type]}
            @input=${(e: Event) => this.set("locations", locations.map((l) => (l.type === type ? { type, value: (e.target as HTMLInputElement).value || null } : l)))}>` : nothing}
        </div>`;
      })}
      ${error ? html`<p class="error" id="et-locations-error">${error}</p>` : nothing}
    </fieldset>`;
  }

  private paymentEditor() {
    const payment = this.draft?.payment ?? null;
    const error = fieldMessages(this.failure, this.t).payment?.join(" ") ?? "";
    return html`<fieldset aria-describedby=${error ? "et-payment-error" : nothing}><legend>${this.t.payment}</legend>
      ${error ? html`<p class="error" id="et-payment-error">${error}</p>` : nothing}
      <div class="field"><label class="check" for="et-paid"><input id="et-paid" type="checkbox" .checked=${!!payment}
        @change=${(e: Event) => this.set("payment", (e.target as HTMLInputElement).checked ? { amount: 1000, currency: "eur", providerAccountId: "acct_" } : null)}> ${this.t.labels.cardPayment}</label></div>
      ${payment
        ? html`<div class="grid">
            ${field("et-amount", this.t.labels.amount, (a) => html`<input id="et-amount" type="number" .value=${String(payment.amount)} aria-describedby=${a.describedby} aria-invalid=${a.invalid}
              @input=${(e: Event) => this.setPayment({ amount: Number((e.target as HTMLInputElement).value) })}>`, fieldError(this.failure, "payment.amount"))}
            ${field("et-currency", this.t.labels.currency, (a) => html`<input id="et-currency" .value=${payment.currency} maxlength="3" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
              @input=${(e: Event) => this.setPayment({ currency: (e.target as HTMLInputElement).value })}>`, fieldError(this.failure, "payment.currency"))}
            ${field("et-account", this.t.labels.stripeAccount, (a) => html`<input id="et-account" .value=${payment.providerAccountId} aria-describedby=${a.describedby} aria-invalid=${a.invalid}
              @input=${(e: Event) => this.setPayment({ providerAccountId: (e.target as HTMLInputElement).value })}>`, fieldError(this.failure, "payment.providerAccountId"))}
          </div>`
        : nothing}
    </fieldset>`;
  }

  private appearanceEditor() {
    const texts = this.draft?.locale?.texts ?? {};
    const theme = this.draft?.theme ?? {};
    return html`<fieldset><legend>${this.t.appearance}</legend>
      <div class="grid">
        ${field("et-mode", this.t.labels.mode, () => html`<select id="et-mode" @change=${(e: Event) => {
            const chosen = (e.target as HTMLSelectElement).value;
            this.setTheme({ mode: THEME_MODES.find((m) => m === chosen) ?? "light" });
          }}>
          ${THEME_MODES.map((m) => html`<option value=${m} ?selected=${theme.mode === m}>${this.t.modes[m]}</option>`)}</select>`)}
        ${this.input("theme.borderRadius", this.t.labels.cornerRadius, theme.borderRadius, (raw) => this.setTheme({ borderRadius: raw }))}
        ${this.languageChoice()}
        ${field("et-week", this.t.labels.weekStarts, () => html`<select id="et-week" @change=${(e: Event) => this.setLocale({ startDayOfWeek: (e.target as HTMLSelectElement).value === "sunday" ? "sunday" : "monday" })}>
          ${([["monday", 0], ["sunday", 6]] as const).map(([d, i]) => html`<option value=${d} ?selected=${this.draft?.locale?.startDayOfWeek === d}>${this.t.dayNames[i]}</option>`)}</select>`)}
        ${THEME_COLOR_KEYS.map((c) => field(`et-color-${c}`, `${this.t.labels.colour}: ${c}`, (a) => html`<input id="et-color-${c}" .value=${theme.colors?.[c] ?? ""} placeholder="#2563eb"
          aria-describedby=${a.describedby} aria-invalid=${a.invalid}
          @input=${(e: Event) => {
            const colors = { ...theme.colors };
            const value = (e.target as HTMLInputElement).value.trim();
            if (value) colors[c] = value;
            else delete colors[c];
            this.setTheme({ colors });
          }}>`, fieldError(this.failure, `theme.colors.${c}`)))}
      </div>
      ${field("et-texts", this.t.labels.texts, (a) => html`<textarea id="et-texts" rows="3" style="width: 100%" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
        .value=${Object.entries(texts).map(([k, v]) => `${k}=${v}`).join("\n")}
        @input=${(e: Event) => this.setLocale({ texts: Object.fromEntries((e.target as HTMLTextAreaElement).value.split("\n").filter((l) => l.includes("=")).map((l) => [l.slice(0, l.indexOf("=")).trim(), l.slice(l.indexOf("=") + 1)])) })}></textarea>`,
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
    const preset = this.draft?.locale?.preset ?? "";
    const choices: [string, string][] = [["", this.t.browserLanguage], ...CALENDAR_LANGUAGES.map(([tag, name]) => [tag, `${name} (${tag})`] as [string, string])];
    if (preset && !choices.some(([tag]) => tag === preset)) choices.push([preset, preset]);
    return field("et-locale-preset", this.t.calendarLanguage, (a) => html`<select id="et-locale-preset" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
      @change=${(e: Event) => this.setLocale({ preset: (e.target as HTMLSelectElement).value })}>
      ${choices.map(([tag, name]) => html`<option value=${tag} ?selected=${tag === preset}>${name}</option>`)}</select>`, fieldError(this.failure, "locale.preset", this.t));
  }

  private fieldsEditor() {
    const t = this.t;
    const fields = this.draft?.customFields ?? [];
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
            const chosen = (e.target as HTMLSelectElement).value;
            const type: CustomFieldType = CUSTOM_FIELD_TYPES.find((k) => k === chosen) ?? "text";
            const choice = type === "select" || type === "multiselect";
            const { options: _o, ...rest } = f;
            change(i, choice ? { ...rest, type, options: f.options ?? ["A", "B"] } : { ...rest, type });
          }}>${CUSTOM_FIELD_TYPES.map((type) => html`<option value=${type} ?selected=${f.type === type}>${t.fieldTypes[type]}</option>`)}</select>`)}
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

/** The event type's hosts as the admin API takes them back, with their names. */
function hostsOf(view: EventTypeView): (Required<EventTypeHostInput> & { name: string })[] {
  return view.hosts.map((h) => ({ hostId: h.hostId, name: h.name, priority: h.priority, scheduleId: h.scheduleId }));
}

/** The editable settings of an event type as the API answered them. */
function pick(view: EventTypeView): Draft {
  const draft: Draft = {};
  // Stored fields carry their uuid and order; the editor keeps both.
  for (const key of EDITABLE) if (view[key] !== undefined) Object.assign(draft, { [key]: structuredClone(view[key]) });
  return draft;
}
