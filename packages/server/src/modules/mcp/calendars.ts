import { ValidationFailed } from "../../domain/errors.ts";
import type { Services } from "../../services.ts";
import type { BusySourceView, SyncNowAnswer } from "../calendars/service.ts";
import type { Lookup } from "./lookup.ts";
import type { ToolOutput } from "./model.ts";
import { refOf } from "./present.ts";
import type { ToolAnswer, ToolArgs } from "./service.ts";

/**
 * The organizer's tools on the calendars whose busy times block slots (a calendar belongs to a host and
 * blocks every event type of the host): list an event type's or a host's with
 * their sync status, add one (synced at once), sync one now, remove one, and write the event type's
 * bookings into one of their calendars. Through the same service as the admin API, so the same
 * checks answer and a sync answers within the same window (a longer one goes on, shown `syncing`);
 * passwords and tokens are never shown.
 */
export class CalendarTools {
  constructor(
    private readonly services: Services,
    private readonly lookup: Lookup,
  ) {}

  async list(args: ToolArgs<"list_busy_sources">): Promise<ToolAnswer<ToolOutput<"list_busy_sources">>> {
    if (hostAsked(args)) {
      const host = await this.services.hosts.get(args.hostId!);
      const sources = await this.services.calendars.listOfHost(host.id);
      const text = sources.length === 0 ? `${host.name} (host #${host.id}) has no calendars.` : sources.map(sourceLine).join("\n");
      return { data: { eventType: null, host: { id: host.id, name: host.name }, sources }, text };
    }
    const eventType = await this.lookup.eventType(args);
    const sources = await this.services.calendars.list(eventType.id);
    const text = sources.length === 0 ? `"${eventType.settings.title}" (#${eventType.id}) reads no calendars.` : sources.map(sourceLine).join("\n");
    return { data: { eventType: refOf(eventType), host: null, sources }, text };
  }

  async add(args: ToolArgs<"add_busy_source">): Promise<ToolAnswer<ToolOutput<"add_busy_source">>> {
    const { eventTypeId: _id, slug: _slug, hostId, ...input } = args;
    let added: BusySourceView;
    let owner: string;
    if (hostAsked(args)) {
      const host = await this.services.hosts.get(hostId!);
      added = await this.services.calendars.addToHost(host.id, input);
      owner = `host ${host.name} (#${host.id})`;
    } else {
      const eventType = await this.lookup.eventType(args);
      added = await this.services.calendars.add(eventType.id, input);
      owner = `"${eventType.settings.title}" (its host #${added.hostId})`;
    }
    const answer = await this.services.calendars.syncNowWithin(added.id);
    return {
      data: answer,
      text: `Added busy source #${added.id} to ${owner}: it blocks every event type of the host. ${syncLine(answer)}\n${sourceLine(answer.source)}`,
    };
  }

  async remove(args: ToolArgs<"remove_busy_source">): Promise<ToolAnswer<ToolOutput<"remove_busy_source">>> {
    await this.services.calendars.remove(args.sourceId);
    return { data: { sourceId: args.sourceId, removed: true }, text: `Removed busy source #${args.sourceId}; its busy times no longer block slots.` };
  }

  async sync(args: ToolArgs<"sync_busy_source">): Promise<ToolAnswer<ToolOutput<"sync_busy_source">>> {
    const answer = await this.services.calendars.syncNowWithin(args.sourceId);
    return { data: answer, text: `${syncLine(answer)}\n${sourceLine(answer.source)}` };
  }

  async writeBookings(args: ToolArgs<"write_bookings_to_calendar">): Promise<ToolAnswer<ToolOutput<"write_bookings_to_calendar">>> {
    const source = await this.services.calendars.writeBookings(args.sourceId, { calendar: args.calendar });
    return { data: { source }, text: `Confirmed bookings are now written into ${source.writeCalendar}.\n${sourceLine(source)}` };
  }

  async stopWriting(args: ToolArgs<"stop_writing_bookings">): Promise<ToolAnswer<ToolOutput<"stop_writing_bookings">>> {
    const source = await this.services.calendars.stopWritingBookings(args.sourceId);
    return {
      data: { source },
      text: `Bookings are no longer written into a calendar of source #${source.id}; entries already written stay.\n${sourceLine(source)}`,
    };
  }
}

/** Whether the tool names a host rather than an event type; both at once is refused. */
function hostAsked(args: { hostId?: number | undefined; eventTypeId?: number | undefined; slug?: string | undefined }): boolean {
  if (args.hostId === undefined) return false;
  if (args.eventTypeId !== undefined || args.slug !== undefined)
    throw new ValidationFailed({ hostId: ["Name a host or an event type, not both: a calendar belongs to a host and blocks every event type of the host."] });
  return true;
}

function syncLine(answer: SyncNowAnswer): string {
  if (answer.state === "syncing")
    return `The sync goes on after this answer (the calendar is slow to answer); list_busy_sources shows its outcome once "syncing" turns false.`;
  const s = answer.sync;
  return s.ok
    ? `Synced: ${s.downloaded} object(s) downloaded, busy times ${s.changed ? "changed" : "unchanged"}.`
    : `The sync failed (${s.error}); the last good busy times stay in use.`;
}

function sourceLine(s: BusySourceView): string {
  const status = s.status === "never" ? "not synced yet" : s.status === "failing" ? `failing: ${s.lastError}` : "ok";
  return `#${s.id} ${s.kind} ${s.url}: ${status}; last good sync ${s.lastSuccessAt ?? "never"}${s.stale ? " (stale)" : ""}; ${s.objects} object(s), ${s.busyIntervals} busy interval(s)${s.syncing ? "; syncing now" : ""}${s.writeBookings ? `; bookings written into ${s.writeCalendar}` : ""}${s.skippedObjects.map((o) => `; left out ${o.href}: ${o.reason}`).join("")}`;
}
