import type { BusyInterval } from "../../domain/slots.ts";

// Placeholder until the expansion of iCalendar data (its own change, branch i15-expand) is merged:
// that change replaces this whole file. Nothing here parses iCalendar.

export interface BusyWindow {
  fromMs: number;
  untilMs: number;
}

export function busyFromICalendar(_ics: string, _window: BusyWindow, _floatingZone: string): BusyInterval[] {
  throw new Error("reading iCalendar data is not available in this build");
}
