import { MAX_DATE_OVERRIDES, type TimeRange, type Weekday } from "@booking/wire";
import type { AppContext } from "../../context.ts";
import type { AvailabilityRules } from "../../domain/event-type.ts";
import { ValidationFailed } from "../../domain/errors.ts";
import type { EventTypeRecord } from "../../store/event-types.ts";
import type { Services } from "../../services.ts";
import { calendarDate, type EventTypeChoice, type Lookup } from "./lookup.ts";
import type { ReservationView, ToolOutput } from "./model.ts";
import { availabilityOf, availabilityText, rangesText, refOf, reservationLine, reservationOf } from "./present.ts";
import type { ToolAnswer, ToolArgs } from "./service.ts";

/**
 * The organizer's tools on opening hours: read them, set weekdays, give a date its own hours, close
 * it, or return it to its weekday's hours. Every change is a settings change through the admin
 * service, checked by the same rules as `PATCH /admin/event-types/{id}`, and shows at once in
 * `GET /time-slots`. Changing hours never cancels a reservation; date changes list the ones kept.
 */
export class AvailabilityTools {
  constructor(
    private readonly ctx: AppContext,
    private readonly services: Services,
    private readonly origin: string,
    private readonly lookup: Lookup,
  ) {}

  async get(args: ToolArgs<"get_availability">): Promise<ToolAnswer<ToolOutput<"get_availability">>> {
    const eventType = await this.lookup.eventType(args);
    const availability = availabilityOf(eventType);
    return { data: { eventType: refOf(eventType), availability }, text: `"${eventType.settings.title}" (#${eventType.id})\n${availabilityText(availability)}` };
  }

  async setWeeklyHours(args: ToolArgs<"set_weekly_hours">): Promise<ToolAnswer<ToolOutput<"set_weekly_hours">>> {
    const eventType = await this.lookup.eventType(args);
    const current = eventType.settings.availability;
    const weekly: Partial<Record<Weekday, TimeRange[]>> = { ...current.weekly };
    for (const day of args.days) weekly[day] = args.ranges;
    const updated = await this.save(eventType, { weekly, overrides: current.overrides });
    const availability = availabilityOf(updated);
    const days = [...new Set(args.days)].join(", ");
    return {
      data: { eventType: refOf(updated), availability },
      text: `"${updated.settings.title}": ${days} now ${rangesText(args.ranges)} every week.\n${availabilityText(availability)}`,
    };
  }

  async setDateOverride(args: ToolArgs<"set_date_override">): Promise<ToolAnswer<ToolOutput<"set_date_override">>> {
    return this.changeDate(args, args.date, args.ranges);
  }

  async closeDay(args: ToolArgs<"close_day">): Promise<ToolAnswer<ToolOutput<"close_day">>> {
    return this.changeDate(args, args.date, []);
  }

  async clearDateOverride(args: ToolArgs<"clear_date_override">): Promise<ToolAnswer<ToolOutput<"clear_date_override">>> {
    calendarDate(args.date);
    const eventType = await this.lookup.eventType(args);
    const current = eventType.settings.availability;
    const removed = current.overrides.some((o) => o.date === args.date);
    const updated = removed
      ? await this.save(eventType, { weekly: current.weekly, overrides: current.overrides.filter((o) => o.date !== args.date) })
      : eventType;
    const kept = await this.reservationsOn(updated, args.date);
    const text = removed
      ? `"${updated.settings.title}": ${args.date} has its weekday's hours again.`
      : `"${updated.settings.title}": ${args.date} had no override; nothing changed.`;
    return { data: { eventType: refOf(updated), availability: availabilityOf(updated), reservationsOnDate: kept, removed }, text: text + keptText(kept) };
  }

  /** Gives `date` its own hours (none: closed), replacing an override it had. */
  private async changeDate(choice: EventTypeChoice, date: string, ranges: TimeRange[]): Promise<ToolAnswer<ToolOutput<"set_date_override">>> {
    calendarDate(date);
    const eventType = await this.lookup.eventType(choice);
    const current = eventType.settings.availability;
    const overrides = [...current.overrides.filter((o) => o.date !== date), { date, ranges }].sort((a, b) => a.date.localeCompare(b.date));
    if (overrides.length > MAX_DATE_OVERRIDES)
      throw new ValidationFailed({ date: [`An event type keeps at most ${MAX_DATE_OVERRIDES} date overrides; clear past ones first.`] });
    const updated = await this.save(eventType, { weekly: current.weekly, overrides });
    const kept = await this.reservationsOn(updated, date);
    const text = `"${updated.settings.title}": ${date} is ${ranges.length === 0 ? "closed" : `open ${rangesText(ranges)}`} (${updated.settings.timezone}).`;
    return { data: { eventType: refOf(updated), availability: availabilityOf(updated), reservationsOnDate: kept }, text: text + keptText(kept) };
  }

  /** Saves new hours through the admin service, which checks them as the admin API does. */
  private async save(eventType: EventTypeRecord, availability: AvailabilityRules): Promise<EventTypeRecord> {
    return this.services.eventTypeAdmin.updateRecord(eventType.id, { availability });
  }

  /** Confirmed and held reservations on a date of the event type's zone. */
  private async reservationsOn(eventType: EventTypeRecord, date: string): Promise<ReservationView[]> {
    const { zone, rows } = await this.services.bookings.reservationRecords(eventType.id, { from: date, until: date });
    const nowMs = this.ctx.clock.now();
    return rows
      .filter(({ status }) => status === "confirmed" || status === "held")
      .map(({ record }) => reservationOf(record, eventType, zone, this.origin, nowMs));
  }
}

function keptText(kept: ReservationView[]): string {
  if (kept.length === 0) return "";
  return `\nReservations on that day are kept (cancel or move them separately if needed):\n${kept.map((r) => `  ${reservationLine(r)}`).join("\n")}`;
}
