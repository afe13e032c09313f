import { DateTime } from "luxon";
import type { AvailabilityCheck } from "@booking/wire";
import type { AppContext } from "../../context.ts";
import { DomainError } from "../../domain/errors.ts";
import { utc } from "../../lib/time.ts";
import type { Services } from "../../services.ts";
import { startInstant, zoneOf, type Lookup } from "./lookup.ts";
import type { ToolOutput } from "./model.ts";
import type { ToolAnswer, ToolArgs } from "./service.ts";

/**
 * "Why can't I book Alex on Tuesday at 10?": the availability check of the admin API
 * (`GET /admin/event-types/{id}/availability-check`, `GET /admin/hosts/{hostId}/availability-check`)
 * as a tool, through the same service, so the assistant hears the reasons the slot page applies.
 */
export class CheckTools {
  constructor(
    private readonly ctx: AppContext,
    private readonly services: Services,
    private readonly lookup: Lookup,
  ) {}

  async check(args: ToolArgs<"check_availability">): Promise<ToolAnswer<ToolOutput<"check_availability">>> {
    const named = args.eventTypeId !== undefined || args.slug !== undefined;
    if (args.hostId !== undefined) {
      const host = await this.ctx.store.hosts.byId(args.hostId);
      if (!host) throw new DomainError("not_found", `No host with id ${args.hostId}.`);
      const eventTypeId = named ? (await this.lookup.eventType(args)).id : undefined;
      const zone = zoneOf(args.timezone, host.timezone);
      const start = utc(startInstant(args.start, zone));
      const answer = await this.services.availability.host(host.id, start, eventTypeId, {});
      const data = { host: { id: host.id, name: host.name }, timezone: zone, bookable: answer.bookable, checks: answer.eventTypes };
      return { data, text: textOf(data.checks, zone, host.name) };
    }
    const eventType = await this.lookup.eventType(args);
    const zone = zoneOf(args.timezone, eventType.settings.timezone);
    const start = utc(startInstant(args.start, zone));
    const check = await this.services.availability.eventType(eventType.id, start, {});
    return { data: { host: null, timezone: zone, bookable: check.bookable, checks: [check] }, text: textOf([check], zone, null) };
  }
}

/** The checks in words: per event type, bookable or every reason (a team's hosts each with theirs). */
function textOf(checks: AvailabilityCheck[], zone: string, hostName: string | null): string {
  if (checks.length === 0) return `${hostName ?? "The host"} hosts no event type, so nothing can be booked with them.`;
  return checks
    .map((c) => {
      const when = DateTime.fromISO(c.start, { zone }).toFormat("cccc yyyy-MM-dd HH:mm");
      const head = `"${c.title}" (#${c.eventTypeId}) at ${when} (${zone}): ${c.bookable ? "bookable" : "not bookable"}`;
      const lines = c.reasons.map((r) => `  - ${r.message} (${r.code})`);
      if (c.bookable && c.hosts.length > 1)
        for (const h of c.hosts) if (!h.free) lines.push(`  - ${h.name} is not free: ${h.reasons.map((r) => r.code).join(", ")}`);
      return [`${head}.`, ...lines].join("\n");
    })
    .join("\n");
}
