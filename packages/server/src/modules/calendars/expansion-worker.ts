/**
 * The thread that parses and expands calendar objects for the sync (see expansion.ts), so that no
 * calendar, however costly, runs on the thread that answers requests. It takes one job at a time:
 * it says which object it starts (so a job given up can name it), and answers the intervals, merged
 * (as the store keeps them, so the thread that answers requests has little left to sort), as
 * start/end pairs with the objects it could not read.
 */
import type { BusyInterval } from "../../domain/slots.ts";
import { busyFromICalendar, mergeBusy } from "./expand.ts";
import type { ExpansionJob, ExpansionReport, ObjectError } from "./expansion.ts";

declare const self: Worker;

self.onmessage = (event: MessageEvent<ExpansionJob>) => {
  const { objects, window, floatingZone } = event.data;
  const busy: BusyInterval[] = [];
  const errors: ObjectError[] = [];
  for (const object of objects) {
    self.postMessage({ kind: "object", href: object.href } satisfies ExpansionReport);
    try {
      for (const interval of busyFromICalendar(object.ics, window, floatingZone)) busy.push(interval);
    } catch (error) {
      errors.push({ href: object.href, reason: messageOf(error) });
    }
  }
  const merged = mergeBusy(busy.filter((i) => i.endMs > i.startMs));
  const intervals = new Float64Array(merged.length * 2);
  merged.forEach((interval, i) => intervals.set([interval.startMs, interval.endMs], i * 2));
  self.postMessage({ kind: "done", intervals, errors } satisfies ExpansionReport, [intervals.buffer]);
};

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.cause instanceof Error && error.cause.message !== error.message ? `${error.message} (${error.cause.message})` : error.message;
  return String(error);
}
