import type { EventTypeHostInput, EventTypeView } from "@booking/wire";
import { html, nothing, type TemplateResult } from "lit";
import { field, fieldError } from "../../base.ts";
import type { ScheduleView } from "../../model.ts";
import { hostsOf, type DraftEditor } from "./draft.ts";

/**
 * Per host of a saved event type: a schedule of theirs (`schedules`, by host), or the event type's
 * own hours. Kept in the draft's `hosts`, sent with the save.
 */
export function hoursEditor(form: DraftEditor, saved: EventTypeView | null, schedules: Map<number, ScheduleView[]>): TemplateResult | typeof nothing {
  if (!saved) return nothing;
  const t = form.t;
  const current: EventTypeHostInput[] = form.draft!.hosts ?? hostsOf(saved).map(({ hostId, priority, scheduleId }) => ({ hostId, priority, scheduleId }));
  return html`<fieldset><legend>${t.hoursSource}</legend>
    ${current.map((h, i) => {
      const name = hostsOf(saved).find((x) => x.hostId === h.hostId)?.name ?? String(h.hostId);
      return field(
        `et-hours-${h.hostId}`,
        `${t.hoursOf} ${name}`,
        (a) => html`<select id="et-hours-${h.hostId}" aria-describedby=${a.describedby} aria-invalid=${a.invalid}
        @change=${(e: Event) => {
          const value = (e.target as HTMLSelectElement).value;
          form.set(
            "hosts",
            current.map((x, j) => (j === i ? { ...x, scheduleId: value === "" ? null : Number(value) } : x)),
          );
        }}>
        <option value="" ?selected=${(h.scheduleId ?? null) === null}>${t.ownHours}</option>
        ${(schedules.get(h.hostId) ?? []).map((s) => html`<option value=${s.id} ?selected=${s.id === h.scheduleId}>${s.name}</option>`)}
      </select>`,
        fieldError(form.failure, "hosts"),
      );
    })}
  </fieldset>`;
}
