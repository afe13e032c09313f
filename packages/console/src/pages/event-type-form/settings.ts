import { html, type TemplateResult } from "lit";
import { field, fieldError } from "../../base.ts";
import type { DraftEditor } from "./draft.ts";

/** Settings edited as one line of text. */
type TextSetting = "title" | "slug" | "timezone" | "hostName" | "calendarTitle" | "profileImage" | "organizerEmail" | "webhookUrl";
/** Settings edited as a whole number. */
type NumberSetting =
  | "durationMinutes"
  | "slotIntervalMinutes"
  | "seats"
  | "holdMinutes"
  | "bufferBeforeMinutes"
  | "bufferAfterMinutes"
  | "minNoticeMinutes"
  | "horizonDays"
  | "rescheduleNoticeMinutes"
  | "cancelNoticeMinutes"
  | "maxGuests";
/** Settings that are null when left empty. */
const NULLABLE = new Set<TextSetting>(["slug", "hostName", "calendarTitle", "profileImage", "organizerEmail", "webhookUrl"]);

/** An input of one setting: its error key (`path`), label, value, and what typing into it does. */
export function settingInput(
  form: DraftEditor,
  path: string,
  label: string,
  value: string | number | null | undefined,
  update: (raw: string) => void,
  options: { type?: string; help?: string; required?: boolean } = {},
): TemplateResult {
  const id = `et-${path.replaceAll(".", "-")}`;
  return field(
    id,
    label,
    (a) => html`<input id=${id} type=${options.type ?? "text"} .value=${value == null ? "" : String(value)} ?required=${options.required === true}
      aria-describedby=${a.describedby} aria-invalid=${a.invalid} style="width: 100%"
      @input=${(e: Event) => update((e.target as HTMLInputElement).value)}>`,
    fieldError(form.failure, path),
    options.help,
  );
}

/** A setting edited as text; an empty optional one is null. */
function text(form: DraftEditor, key: TextSetting, label: string, options: { type?: string; required?: boolean } = {}): TemplateResult {
  return settingInput(
    form,
    key,
    label,
    form.draft?.[key],
    (raw) => {
      if (key === "title" || key === "timezone") form.set(key, raw);
      else form.set(key, raw === "" && NULLABLE.has(key) ? null : raw);
    },
    options,
  );
}

/** A setting edited as a whole number; empty leaves it out of the save. */
function number(form: DraftEditor, key: NumberSetting, label: string): TemplateResult {
  return settingInput(form, key, label, form.draft?.[key], (raw) => form.set(key, raw === "" ? undefined : Number(raw)), { type: "number" });
}

function check(form: DraftEditor, key: "compact" | "externalBooking", label: string): TemplateResult {
  const id = `et-${key}`;
  return html`<div class="field"><label class="check" for=${id}><input id=${id} type="checkbox" .checked=${form.draft?.[key] === true} @change=${(e: Event) => form.set(key, (e.target as HTMLInputElement).checked)}> ${label}</label></div>`;
}

/** The event type's names, description, time zone and addresses. */
export function generalSettings(form: DraftEditor): TemplateResult {
  const t = form.t;
  return html`<fieldset><legend>${t.general}</legend>
    ${text(form, "title", t.labels.title, { required: true })}
    ${text(form, "slug", t.labels.slug)}
    ${field(
      "et-description",
      t.labels.description,
      (a) => html`<textarea id="et-description" rows="3" style="width: 100%" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
      .value=${form.draft?.description ?? ""} @input=${(e: Event) => form.set("description", (e.target as HTMLTextAreaElement).value)}></textarea>`,
      fieldError(form.failure, "description"),
    )}
    <div class="grid">
      ${text(form, "timezone", t.labels.timezone)}
      ${text(form, "hostName", t.labels.hostName)}
      ${text(form, "calendarTitle", t.labels.calendarTitle)}
      ${text(form, "profileImage", t.labels.profileImageUrl, { type: "url" })}
      ${text(form, "organizerEmail", t.labels.organizerEmail, { type: "email" })}
      ${text(form, "webhookUrl", t.labels.webhookUrl, { type: "url" })}
    </div>
  </fieldset>`;
}

/** How long a booking lasts and when it can be made, moved or cancelled, its seats, guests and reminders. */
export function schedulingSettings(form: DraftEditor): TemplateResult {
  const t = form.t;
  return html`<fieldset><legend>${t.scheduling}</legend>
    <div class="grid">
      ${number(form, "durationMinutes", t.labels.duration)}
      ${number(form, "slotIntervalMinutes", t.labels.grid)}
      ${number(form, "seats", t.labels.seats)}
      ${number(form, "holdMinutes", t.labels.hold)}
      ${number(form, "bufferBeforeMinutes", t.labels.bufferBefore)}
      ${number(form, "bufferAfterMinutes", t.labels.bufferAfter)}
      ${number(form, "minNoticeMinutes", t.labels.minimumNotice)}
      ${number(form, "horizonDays", t.labels.horizon)}
      ${number(form, "rescheduleNoticeMinutes", t.labels.rescheduleNotice)}
      ${number(form, "cancelNoticeMinutes", t.labels.cancelNotice)}
      ${number(form, "maxGuests", t.labels.guestsAtMost)}
      ${field(
        "et-reminders",
        t.labels.reminders,
        (a) => html`<input id="et-reminders" .value=${(form.draft?.reminderMinutes ?? []).join(", ")}
        aria-describedby=${a.describedby} aria-invalid=${a.invalid} style="width: 100%"
        @input=${(e: Event) =>
          form.set(
            "reminderMinutes",
            (e.target as HTMLInputElement).value
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean)
              .map(Number),
          )}>`,
        fieldError(form.failure, "reminderMinutes"),
      )}
    </div>
    ${check(form, "compact", t.labels.compact)} ${check(form, "externalBooking", t.labels.externalBooking)}
  </fieldset>`;
}
