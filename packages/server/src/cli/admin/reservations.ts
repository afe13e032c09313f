/** The command that lists an event type's reservations. */
import { RESERVATION_STATUSES } from "@booking/wire";
import { bookingsQuery } from "./args.ts";
import { table, type CommandGroup } from "./command.ts";

/** Reservations: reservations. */
export const reservationCommands: CommandGroup = {
  usage: `  reservations <id> --from D --until D [--status S] [--timezone Z]
                                     List reservations in a range of days;
                                       S is ${RESERVATION_STATUSES.join(", ")}`,
  commands: {
    reservations: {
      ids: 1,
      flags: ["from", "until", "status", "timezone"],
      async run({ id, flags, api, out }) {
        const query = bookingsQuery(flags);
        const rows = await api<ReservationRow[]>("GET", `/admin/event-types/${id}/reservations?${query}`);
        out(rows, () => reservationsText(rows));
      },
    },
  },
};

interface ReservationRow {
  uuid: string;
  status: string;
  start: string;
  end: string;
  email: string;
  firstname: string;
  lastname: string;
}

function reservationsText(rows: ReservationRow[]): string {
  if (rows.length === 0) return "No reservations in this range.";
  return table([
    ["START", "END", "STATUS", "NAME", "EMAIL", "UUID"],
    ...rows.map((r) => [r.start, r.end, r.status, `${r.firstname} ${r.lastname}`.trim() || "-", r.email, r.uuid]),
  ]);
}
