/**
 * The thread that parses and expands calendar objects for the sync (see expansion.ts), so that no
 * calendar, however costly, runs on the thread that answers requests. It takes one job at a time
 * and reports each object as it goes: that it starts it (so the object is known when the thread is
 * ended past a limit), then its busy intervals, merged as the store keeps them (so the thread that
 * answers requests has little left to sort), or why it cannot be read.
 */
import { setPriority } from "node:os";
import { messageOf } from "../../lib/error-message.ts";
import { busyFromICalendar, mergeBusy } from "./expand.ts";
import type { ExpansionJob, ExpansionReport } from "./expansion.ts";

declare const self: Worker;

// Where cores are short, the thread that answers requests goes first. On Linux a priority set with
// pid 0 is the calling thread's alone; elsewhere it would be the whole process's, so it is left.
if (process.platform === "linux") {
  try {
    setPriority(10);
  } catch {
    // Not allowed here (a container without the right): the thread runs at the process's priority.
  }
}

self.onmessage = (event: MessageEvent<ExpansionJob>) => {
  const { objects, window, floatingZone } = event.data;
  for (const { href, ics } of objects) {
    self.postMessage({ kind: "start", href } satisfies ExpansionReport);
    let report: ExpansionReport;
    try {
      const merged = mergeBusy(busyFromICalendar(ics, window, floatingZone));
      const intervals = new Float64Array(merged.length * 2);
      for (const [i, interval] of merged.entries()) intervals.set([interval.startMs, interval.endMs], i * 2);
      report = { kind: "read", href, intervals };
    } catch (error) {
      report = { kind: "unreadable", href, reason: messageOf(error) };
    }
    self.postMessage(report, report.kind === "read" ? [report.intervals.buffer] : []);
  }
  self.postMessage({ kind: "done" } satisfies ExpansionReport);
};
