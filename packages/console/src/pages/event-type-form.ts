import { html } from "lit";
import { api, type ApiFailure } from "../api.ts";
import { ConsolePage, errorSummary, failureText, refusalOf, unsaved } from "../base.ts";
import type { Texts } from "../i18n/index.ts";
import type { EventTypeView } from "@booking/wire";
import type { ScheduleView } from "../model.ts";
import { NEW_DRAFT, hostsOf, pick, type Draft, type DraftEditor } from "./event-type-form/draft.ts";
import { generalSettings, schedulingSettings } from "./event-type-form/settings.ts";
import { recurrenceEditor } from "./event-type-form/recurrence.ts";
import { hoursEditor } from "./event-type-form/hours.ts";
import { locationsEditor } from "./event-type-form/locations.ts";
import { paymentEditor } from "./event-type-form/payment.ts";
import { appearanceEditor } from "./event-type-form/appearance.ts";
import { customFieldsEditor } from "./event-type-form/custom-fields.ts";
import { limitsEditor } from "./event-type-form/limits.ts";

/** The label (a key of the texts' `labels`) of each setting with a field of its own, for the list of a refused save's errors. */
const LABEL_OF: Record<string, keyof Texts["labels"]> = {
  title: "title",
  slug: "slug",
  description: "description",
  timezone: "timezone",
  hostName: "hostName",
  calendarTitle: "calendarTitle",
  profileImage: "profileImageUrl",
  organizerEmail: "organizerEmail",
  webhookUrl: "webhookUrl",
  durationMinutes: "duration",
  slotIntervalMinutes: "grid",
  seats: "seats",
  holdMinutes: "hold",
  bufferBeforeMinutes: "bufferBefore",
  bufferAfterMinutes: "bufferAfter",
  minNoticeMinutes: "minimumNotice",
  horizonDays: "horizon",
  rescheduleNoticeMinutes: "rescheduleNotice",
  cancelNoticeMinutes: "cancelNotice",
  maxGuests: "guestsAtMost",
  reminderMinutes: "reminders",
  "theme.borderRadius": "cornerRadius",
  "locale.texts": "texts",
  "payment.amount": "amount",
  "payment.currency": "currency",
  "payment.providerAccountId": "stripeAccount",
  "limits.bookingsPerDay": "bookingsPerDay",
  "limits.bookingsPerWeek": "bookingsPerWeek",
  "limits.bookingsPerMonth": "bookingsPerMonth",
  "limits.minutesPerDay": "minutesPerDay",
  "limits.minutesPerWeek": "minutesPerWeek",
};

/**
 * Creates or edits an event type: every setting, the custom fields (add, reorder, required,
 * options), and beside the form the real calendar showing the unsaved appearance and texts. Errors
 * of a refused save are shown at their fields; leaving with unsaved changes asks first.
 */
export class EventTypeForm extends ConsolePage implements DraftEditor {
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
      this.schedules = new Map(
        await Promise.all(
          hostIds.map(
            async (hostId) => [hostId, await api("GET /admin/hosts/:hostId/schedules", { params: { hostId } }).catch(() => [] as ScheduleView[])] as const,
          ),
        ),
      );
    });
  }

  /** Sets one setting of the draft (the sections of the form change it only through here) and marks the page unsaved. */
  set<K extends keyof Draft>(key: K, value: Draft[K]): void {
    this.draft = { ...this.draft, [key]: value };
    unsaved.dirty = true;
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

  override render() {
    const t = this.t;
    if (!this.draft) return html`<h2 tabindex="-1">${t.eventTypes}</h2><p>${t.loading}</p>`;
    const title = this.eventTypeId === null ? t.newEventType : (this.saved?.title ?? "");
    const form = html`<form @submit=${this.save} novalidate>
      ${this.failure && !Object.keys(this.failure.errors).length ? html`<p class="notice bad" role="alert">${failureText(this.failure, t)}</p>` : errorSummary(this.failure, t.fixFields, t, (key) => this.labelOf(key))}
      ${generalSettings(this)} ${schedulingSettings(this)} ${limitsEditor(this)}
      ${hoursEditor(this, this.saved, this.schedules)} ${locationsEditor(this)} ${paymentEditor(this)} ${recurrenceEditor(this)} ${appearanceEditor(this)} ${customFieldsEditor(this)}
      <button class="primary" type="submit" ?disabled=${this.busy}>${this.eventTypeId === null ? t.create : t.save}</button>
    </form>`;
    return html`<h2 tabindex="-1">${title || t.newEventType}</h2>
      <p><a href="#/event-types">← ${t.eventTypes}</a></p>
      ${
        this.saved
          ? html`<div class="split">${form}<div><h3>${t.preview}</h3><p class="muted">${t.previewHelp} ${t.previewCheckHelp}</p>
            <console-calendar-preview token=${this.saved.linkToken} calendar-src=${this.calendarSrc} .draft=${this.draft} label=${t.preview} .eventTypeId=${this.saved.id}
              .texts=${{ showAs: t.previewShowAs, inline: t.previewInline, popup: t.popup, floating: t.floating, openPopup: t.previewOpenPopup, floatingHelp: t.previewFloatingHelp }}></console-calendar-preview></div></div>`
          : form
      }`;
  }

  /** The label of the field a problem's key names (a setting, a colour, the calendar's language), if it has one. */
  private labelOf(key: string): string | undefined {
    const t = this.t;
    if (LABEL_OF[key]) return t.labels[LABEL_OF[key]];
    if (key === "locale.preset") return t.calendarLanguage;
    const colour = /^theme\.colors\.(\w+)$/.exec(key)?.[1];
    return colour ? `${t.labels.colour}: ${colour}` : undefined;
  }
}
