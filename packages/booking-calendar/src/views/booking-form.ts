import { LitElement, css, html, nothing, type TemplateResult } from "lit";
import { ContextConsumer } from "@lit/context";
import type { CustomField, Location, RecurrenceSetting } from "@booking/wire";
import { LIMITS } from "@booking/wire/limits";
import { environmentContext } from "../context.ts";
import { controlStyles } from "../booking-calendar.styles.ts";
import { needsLocationValue, type BookingDraft } from "../flow/draft.ts";
import type { TextKey } from "../i18n/texts.ts";
import type { SeriesChoiceEvents, SeriesSource } from "./series-choice.ts";

/** Internal: the visitor typed (`detail.draft`) or asked to go on. */
export type BookingFormEvents = { "bc-draft-change": { draft: BookingDraft }; "bc-submit": Record<string, never> };

const fieldId = (key: string) => `f-${key.replace(/[^a-zA-Z0-9-]/g, "-")}`;

/**
 * The visitor's details: email, names, phone, guests, the meeting location and the event type's
 * custom fields in their order. A conditional field comes and goes at once, without motion or an
 * announcement: it always follows the field that shows it, where a screen reader reads on, so the
 * field being answered, and the focus in it, stay where they are. It
 * holds nothing itself: every keystroke goes up as a new draft, so an error or a retry never loses
 * what was typed. Errors arrive by the server's field keys.
 */
export class BookingForm extends LitElement {
  static override styles = [
    controlStyles,
    css`
    :host { display: block; }
    form { display: grid; gap: 0.9rem; }
    .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 0.75rem; }
    @media (max-width: 30rem) { .pair { grid-template-columns: 1fr; } }
    .field { display: grid; gap: 0.3rem; }
    label, legend { font-weight: 600; font-size: 0.9rem; }
    fieldset { border: none; padding: 0; margin: 0; display: grid; gap: 0.35rem; }
    .choice { display: flex; align-items: center; gap: 0.5rem; font-weight: 400; }
    .guest { display: flex; gap: 0.5rem; align-items: start; }
    .guest .field { flex: 1; }
    .req { color: var(--bc-danger); margin-left: 0.15rem; }
    textarea { min-height: 5rem; resize: vertical; }
  `,
  ];

  static override properties = {
    draft: { attribute: false },
    fields: { attribute: false },
    locations: { attribute: false },
    problems: { attribute: false },
    busy: { type: Boolean },
    submitLabel: { type: String },
    recurrence: { attribute: false },
    slotStart: { type: String },
    seriesSource: { attribute: false },
  };

  declare draft: BookingDraft;
  /**
   * The custom fields to ask: the element passes those the answers so far show (`shownFields`), so a
   * conditional field comes and goes as the visitor answers. `optionLabels` show the options in the
   * visitor's language (the answer stays the option).
   */
  declare fields: (CustomField & { optionLabels?: string[] })[];
  declare locations: Location[];
  /** Messages by field key: `email`, `guests.0`, `location.value`, `customFields.<uuid>`, ... */
  declare problems: Record<string, string[]>;
  declare busy: boolean;
  declare submitLabel: string;
  /** The event type's `recurrence`: with it, the visitor may repeat the booking (`<bc-series-choice>`, asking `seriesSource` about `slotStart`). */
  declare recurrence: RecurrenceSetting | null;
  declare slotStart: string;
  declare seriesSource: SeriesSource | null;

  readonly #env = new ContextConsumer(this, { context: environmentContext, subscribe: true });

  constructor() {
    super();
    this.fields = [];
    this.locations = [];
    this.problems = {};
    this.busy = false;
    this.submitLabel = "";
    this.recurrence = null;
    this.slotStart = "";
    this.seriesSource = null;
  }

  /** Focuses the first field with a problem, in the order they are shown. */
  focusFirstProblem(): void {
    const first = this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.focus();
  }

  #t(key: TextKey, values?: Record<string, string | number>): string {
    return this.#env.value!.texts(key, values);
  }

  #change(patch: Partial<BookingDraft>): void {
    this.dispatchEvent(new CustomEvent("bc-draft-change", { detail: { draft: { ...this.draft, ...patch } } }));
  }

  #answer(uuid: string, value: unknown): void {
    this.#change({ answers: { ...this.draft.answers, [uuid]: value } });
  }

  #submit(event: Event): void {
    event.preventDefault();
    if (!this.busy) this.dispatchEvent(new CustomEvent("bc-submit", { detail: {} }));
  }

  /** Attributes tying a control to its error text. */
  #invalid(key: string) {
    return this.problems[key]?.length ? "true" : "false";
  }

  #problemText(key: string) {
    const messages = this.problems[key];
    return messages?.length ? html`<p class="error" id=${`${fieldId(key)}-error`}>${messages.join(" ")}</p>` : nothing;
  }

  #describedBy(key: string): string {
    return this.problems[key]?.length ? `${fieldId(key)}-error` : "";
  }

  #label(key: string, text: string, required: boolean): TemplateResult {
    return html`<label for=${fieldId(key)}>${text}${required ? html`<span class="req" aria-hidden="true">*</span>` : nothing}</label>`;
  }

  #textInput(key: "email" | "firstname" | "lastname" | "phone", type: string, autocomplete: string, required = false) {
    return html`<div class="field">
      ${this.#label(key, this.#t(key), required)}
      <input id=${fieldId(key)} name=${key} type=${type} autocomplete=${autocomplete} part="input"
        maxlength=${key === "email" ? LIMITS.emailMaxLength : LIMITS.textMaxLength}
        aria-required=${required ? "true" : "false"} aria-invalid=${this.#invalid(key)} aria-describedby=${this.#describedBy(key)}
        .value=${this.draft[key]} @input=${(e: Event) => this.#change({ [key]: (e.target as HTMLInputElement).value })}>
      ${this.#problemText(key)}
    </div>`;
  }

  protected override render() {
    if (!this.#env.value || !this.draft) return nothing;
    return html`<form novalidate part="form" @submit=${this.#submit}>
      ${this.#textInput("email", "email", "email", true)}
      <div class="pair">
        ${this.#textInput("firstname", "text", "given-name")}
        ${this.#textInput("lastname", "text", "family-name")}
      </div>
      ${this.#phoneCall() ? nothing : this.#textInput("phone", "tel", "tel")}
      ${this.#renderLocation()}
      ${[...this.fields].sort((a, b) => a.order - b.order).map((field) => this.#renderCustomField(field))}
      ${this.#renderGuests()}
      ${
        this.recurrence
          ? html`<bc-series-choice exportparts="series, series-dates, input" .recurrence=${this.recurrence} .start=${this.slotStart} .source=${this.seriesSource}
            .repeat=${this.draft.repeat ?? null} ?busy=${this.busy} @bc-repeat-change=${(e: CustomEvent<SeriesChoiceEvents["bc-repeat-change"]>) => this.#change({ repeat: e.detail.repeat })}></bc-series-choice>`
          : nothing
      }
      <div><button class="primary" type="submit" part="submit" ?disabled=${this.busy} aria-busy=${this.busy ? "true" : "false"}>${this.submitLabel}</button></div>
    </form>`;
  }

  #chosenLocation(): Location | undefined {
    return this.locations.find((l) => l.type === this.draft.locationType) ?? this.locations[0];
  }

  /** A phone call the visitor is called on: one phone field serves as both their number and the place. */
  #phoneCall(): boolean {
    const chosen = this.#chosenLocation();
    return chosen?.type === "phone" && needsLocationValue(chosen);
  }

  /** The one phone field of a phone call: required, and showing the problems of both keys it fills. */
  #renderCallNumber() {
    const id = fieldId("location.value");
    // The same problem found under both keys is said once.
    const problems = [...new Set([...(this.problems["location.value"] ?? []), ...(this.problems.phone ?? [])])];
    return html`<div class="field">
      ${this.#label("location.value", this.#t("locationValuePhone"), true)}
      <input id=${id} name="phone" type="tel" autocomplete="tel" part="input" maxlength=${LIMITS.textMaxLength}
        aria-required="true" aria-invalid=${problems.length ? "true" : "false"} aria-describedby=${problems.length ? `${id}-error` : ""}
        .value=${this.draft.phone} @input=${(e: Event) => {
          const value = (e.target as HTMLInputElement).value;
          this.#change({ phone: value, locationValue: value });
        }}>
      ${problems.length ? html`<p class="error" id=${`${id}-error`}>${problems.join(" ")}</p>` : nothing}
    </div>`;
  }

  #renderLocation() {
    if (this.locations.length === 0) return nothing;
    const chosen = this.#chosenLocation()!;
    const valueKey = "location.value";
    const valueLabel = chosen.type === "phone" ? this.#t("locationValuePhone") : this.#t("locationValueAddress");
    return html`
      ${
        this.locations.length > 1
          ? html`<fieldset part="locations">
        <legend>${this.#t("location")}</legend>
        ${this.locations.map(
          (l) => html`<label class="choice">
          <input type="radio" name="location" .value=${l.type} .checked=${l.type === chosen.type}
            @change=${() => this.#change(l.type === "phone" ? { locationType: l.type, locationValue: this.draft.phone } : { locationType: l.type, locationValue: this.#phoneCall() ? "" : this.draft.locationValue })}>
          ${this.#t(`location.${l.type}` as TextKey)}${l.value ? html` <span class="muted">(${l.value})</span>` : nothing}
        </label>`,
        )}
      </fieldset>`
          : html`<p class="muted">${this.#t("location")}: ${this.#t(`location.${chosen.type}` as TextKey)}${chosen.value ? ` (${chosen.value})` : ""}</p>`
      }
      ${
        this.#phoneCall()
          ? this.#renderCallNumber()
          : needsLocationValue(chosen)
            ? html`<div class="field">
        ${this.#label(valueKey, valueLabel, true)}
        <input id=${fieldId(valueKey)} type=${chosen.type === "phone" ? "tel" : "text"} part="input" maxlength=${LIMITS.textMaxLength}
          autocomplete=${chosen.type === "phone" ? "tel" : "street-address"} placeholder=${chosen.type === "phone" ? this.draft.phone : ""}
          aria-required="true" aria-invalid=${this.#invalid(valueKey)} aria-describedby=${this.#describedBy(valueKey)}
          .value=${this.draft.locationValue} @input=${(e: Event) => this.#change({ locationValue: (e.target as HTMLInputElement).value })}>
        ${this.#problemText(valueKey)}
      </div>`
            : nothing
      }
    `;
  }

  #renderGuests() {
    const guests = this.draft.guests;
    return html`<fieldset part="guests">
      <legend>${this.#t("guests")}</legend>
      ${guests.map(
        (guest, i) => html`<div class="guest">
        <div class="field">
          <label class="visually-hidden" for=${fieldId(`guests.${i}`)}>${this.#t("guestEmail", { number: i + 1 })}</label>
          <input id=${fieldId(`guests.${i}`)} type="email" part="input" maxlength=${LIMITS.emailMaxLength} autocomplete="off"
            aria-invalid=${this.#invalid(`guests.${i}`)} aria-describedby=${this.#describedBy(`guests.${i}`)}
            .value=${guest} @input=${(e: Event) => this.#change({ guests: guests.map((g, j) => (j === i ? (e.target as HTMLInputElement).value : g)) })}>
          ${this.#problemText(`guests.${i}`)}
        </div>
        <button type="button" aria-label=${this.#t("removeGuest", { number: i + 1 })} @click=${() => this.#change({ guests: guests.filter((_, j) => j !== i) })}>×</button>
      </div>`,
      )}
      ${this.#problemText("guests")}
      ${guests.length < LIMITS.maxGuests ? html`<div><button type="button" class="link" @click=${() => this.#addGuest()}>+ ${this.#t("addGuest")}</button></div>` : nothing}
    </fieldset>`;
  }

  async #addGuest(): Promise<void> {
    const index = this.draft.guests.length;
    this.#change({ guests: [...this.draft.guests, ""] });
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>(`#${fieldId(`guests.${index}`)}`)?.focus();
  }

  #renderCustomField(field: CustomField & { optionLabels?: string[] }) {
    const key = `customFields.${field.uuid}`;
    const id = fieldId(key);
    const value = this.draft.answers[field.uuid];
    const common = { invalid: this.#invalid(key), describedBy: this.#describedBy(key), required: field.required ? "true" : "false" };
    const onText = (e: Event) => this.#answer(field.uuid, (e.target as HTMLInputElement).value);
    let control: TemplateResult;
    switch (field.type) {
      case "textarea":
        control = html`<textarea id=${id} part="input" maxlength=${LIMITS.textareaMaxLength} aria-required=${common.required} aria-invalid=${common.invalid}
          aria-describedby=${common.describedBy} placeholder=${field.placeholder ?? ""} .value=${String(value ?? "")} @input=${onText}></textarea>`;
        break;
      case "number":
        control = html`<input id=${id} type="number" part="input" inputmode="decimal" aria-required=${common.required} aria-invalid=${common.invalid}
          aria-describedby=${common.describedBy} .value=${value === undefined || value === null ? "" : String(value)}
          @input=${(e: Event) => {
            const raw = (e.target as HTMLInputElement).value;
            this.#answer(field.uuid, raw === "" ? undefined : Number(raw));
          }}>`;
        break;
      case "select":
        control = html`<select id=${id} part="input" aria-required=${common.required} aria-invalid=${common.invalid} aria-describedby=${common.describedBy}
          @change=${(e: Event) => this.#answer(field.uuid, (e.target as HTMLSelectElement).value || undefined)}>
          <option value="" ?selected=${!value}>${this.#t("choose")}</option>
          ${(field.options ?? []).map((o, i) => html`<option .value=${o} ?selected=${o === value}>${field.optionLabels?.[i] ?? o}</option>`)}
        </select>`;
        break;
      case "multiselect": {
        const chosen = Array.isArray(value) ? (value as string[]) : [];
        return html`<fieldset part="field" aria-invalid=${common.invalid} aria-describedby=${common.describedBy}>
          <legend>${field.label}${field.required ? html`<span class="req" aria-hidden="true">*</span><span class="visually-hidden"> (${this.#t("required")})</span>` : nothing}</legend>
          ${(field.options ?? []).map(
            (o, i) => html`<label class="choice"><input type="checkbox" .checked=${chosen.includes(o)}
            @change=${(e: Event) => this.#answer(field.uuid, (e.target as HTMLInputElement).checked ? [...chosen, o] : chosen.filter((c) => c !== o))}>${field.optionLabels?.[i] ?? o}</label>`,
          )}
          ${this.#problemText(key)}
        </fieldset>`;
      }
      case "checkbox":
        return html`<div class="field" part="field">
          <label class="choice"><input id=${id} type="checkbox" aria-required=${common.required} aria-invalid=${common.invalid}
            aria-describedby=${common.describedBy} .checked=${value === true}
            @change=${(e: Event) => this.#answer(field.uuid, (e.target as HTMLInputElement).checked)}>
            ${field.label}${field.required ? html`<span class="req" aria-hidden="true">*</span>` : nothing}</label>
          ${this.#problemText(key)}
        </div>`;
      default: {
        const type = field.type === "email" ? "email" : field.type === "phone" ? "tel" : field.type === "date" ? "date" : "text";
        control = html`<input id=${id} type=${type} part="input" maxlength=${type === "date" ? nothing : LIMITS.textMaxLength}
          aria-required=${common.required} aria-invalid=${common.invalid} aria-describedby=${common.describedBy}
          placeholder=${field.placeholder ?? ""} .value=${String(value ?? "")} @input=${onText}>`;
      }
    }
    return html`<div class="field" part="field">${this.#label(key, field.label, field.required)}${control}${this.#problemText(key)}</div>`;
  }
}
