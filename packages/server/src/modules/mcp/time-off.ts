import { Type } from "@sinclair/typebox";
import { z } from "zod";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { TimeOffCreate, TimeOffView, type TimeOffView as TimeOff } from "@booking/wire";
import type { Services } from "../../services.ts";
import { toolOutput } from "./tool-input.ts";

const hostId = Type.Integer({ minimum: 1, description: "Id of the host (see list_hosts)." });
const fields = TimeOffCreate.properties;

/** Inputs of the time off tools, merged into ToolInputs (model.ts). */
export const TimeOffToolInputs = {
  list_time_off: Type.Object({ hostId }),
  add_time_off: Type.Object({
    hostId,
    startDate: fields.startDate,
    endDate: fields.endDate,
    start: fields.start,
    end: fields.end,
    note: fields.note,
    colleagueHostId: fields.colleagueHostId,
  }),
  remove_time_off: Type.Object({ hostId, timeOffId: Type.Integer({ minimum: 1, description: "Id of the time off (see list_time_off)." }) }),
};

const TimeOffOut = toolOutput(TimeOffView);

/** Outputs of the time off tools, merged into ToolOutputs (model.ts). */
export const TimeOffToolOutputs = {
  list_time_off: z.object({ hostId: z.number().int(), timeOff: z.array(TimeOffOut) }),
  add_time_off: z.object({ timeOff: TimeOffOut }),
  remove_time_off: z.object({ timeOffId: z.number().int(), removed: z.boolean() }),
};

const CHANGE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/** Titles, descriptions and hints of the time off tools, merged into TOOLS (server.ts). */
export const TIME_OFF_TOOLS = {
  list_time_off: {
    title: "List a host's time off",
    description:
      "The host's time off still to come: whole days in the host's zone or time ranges, each with its note and the colleague who takes the bookings.",
    annotations: { readOnlyHint: true, openWorldHint: false } as ToolAnnotations,
  },
  add_time_off: {
    title: "Add time off",
    description:
      "Marks a host away: whole days startDate..endDate (inclusive, in the host's zone) or a range start..end (ISO 8601 with an offset). Away time blocks the host like a calendar event: round robin gives the time to another host, a collective event type meets without them, and the host's personal event types offer the times of colleagueHostId (another host, who then gets the booking) or none, showing the note. Bookings already made stay.",
    annotations: CHANGE,
  },
  remove_time_off: {
    title: "Remove time off",
    description: "Removes one time off of the host; their hours are offered again at once.",
    annotations: { ...CHANGE, destructiveHint: true, idempotentHint: true },
  },
};

type Args<K extends keyof typeof TimeOffToolInputs> = (typeof TimeOffToolInputs)[K]["static"];

/** When a time off is, as a line of text. */
const whenText = (t: TimeOff) =>
  `#${t.id} ${t.startDate ? `${t.startDate} to ${t.endDate} (whole days)` : `${t.start} to ${t.end}`}${t.colleagueName ? `, ${t.colleagueName} takes the bookings` : ""}${t.note ? ` — ${t.note}` : ""}`;

/** The time off tools, through the same service as `/admin/hosts/{hostId}/time-off`. */
export class TimeOffTools {
  constructor(private readonly services: Services) {}

  async list(args: Args<"list_time_off">) {
    const timeOff = await this.services.timeOff.list(args.hostId);
    return {
      data: { hostId: args.hostId, timeOff },
      text: timeOff.length === 0 ? `Host #${args.hostId} has no time off to come.` : `Time off of host #${args.hostId}:\n${timeOff.map(whenText).join("\n")}`,
    };
  }

  async add(args: Args<"add_time_off">) {
    const { hostId: id, ...input } = args;
    const timeOff = await this.services.timeOff.create(id, input);
    return { data: { timeOff }, text: `Host #${id} is away: ${whenText(timeOff)}.` };
  }

  async remove(args: Args<"remove_time_off">) {
    await this.services.timeOff.delete(args.hostId, args.timeOffId);
    return { data: { timeOffId: args.timeOffId, removed: true }, text: `Removed time off #${args.timeOffId} of host #${args.hostId}.` };
  }
}
