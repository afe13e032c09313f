import { availableParallelism } from "node:os";
import type { BusyInterval } from "../../domain/slots.ts";
import type { BusyObject, SkippedObject } from "../../store/busy.ts";
import type { BusyWindow } from "./expand.ts";

/** The busy intervals of a sync's objects, with the objects left out because they could not be read. */
export interface ObjectsExpansion {
  intervals: BusyInterval[];
  errors: SkippedObject[];
}

/**
 * Expands the objects of a sync into busy intervals meeting the window (floating and all-day times
 * in `floatingZone`), each object on its own: one that cannot be read, or that passes the limits of
 * the expansion, is reported in `errors` and the others still count. Rejects once `signal` aborts
 * (the sync's deadline, the server stopping).
 */
export interface CalendarExpander {
  expandObjects(objects: readonly Pick<BusyObject, "href" | "ics">[], window: BusyWindow, floatingZone: string, signal: AbortSignal): Promise<ObjectsExpansion>;
  /** Ends the threads it keeps, and the expansions under way; a later expansion starts them again. */
  close(): Promise<void>;
}

/** What the expansion thread is asked (expansion-worker.ts). */
export interface ExpansionJob {
  objects: Pick<BusyObject, "href" | "ics">[];
  window: BusyWindow;
  floatingZone: string;
}

/**
 * What the expansion thread answers, in order: for each object, that it starts it, then its busy
 * intervals (merged, as start/end pairs) or why it cannot be read; then that the job is done.
 */
export type ExpansionReport =
  | { kind: "start"; href: string }
  | { kind: "read"; href: string; intervals: Float64Array }
  | { kind: "unreadable"; href: string; reason: string }
  | { kind: "done" };

/** Limits of the expansion of one calendar object, and of the threads. */
interface ExpansionLimits {
  /** Longest reading one object may take, in ms; the thread is ended when it passes. */
  deadlineMs: number;
  /** Most the process's memory (resident set) may grow while a thread reads the objects of a sync, in bytes; the thread is ended past it. */
  memoryBytes: number;
  /** Threads that expand side by side; jobs beyond wait for one. */
  threads: number;
  /** How long a thread with no job is kept, in ms. */
  idleMs: number;
}

/** A minute for one object (a feed is one): a calendar a real program wrote takes well under a second a thousand events. */
const EXPANSION_DEADLINE_MS = 60_000;
/** Two GiB: a 20 MB feed of 100 000 events takes about half a GiB to parse and expand. */
const EXPANSION_MEMORY_BYTES = 2 * 1024 ** 3;
/** How often the memory of a job under way is looked at, in ms. */
const MEMORY_SAMPLE_MS = 100;
/** Ten seconds: the syncs of a pass come together, then there is nothing to expand for minutes. */
const EXPANSION_IDLE_MS = 10_000;

/** One thread, or two where the machine has cores to spare: the thread that answers requests keeps one. */
function defaultThreads(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

/**
 * Expands calendars on worker threads (expansion-worker.ts), never on the thread that answers
 * requests: a calendar built to cost (a zone rule repeating every second since 1601, hundreds of
 * thousands of dates or events) can hold a thread, never the API. An object whose reading passes its
 * deadline or makes the process's memory grow past its cap has its thread ended at once (ending a
 * thread stops it inside a synchronous call, which no deadline checked between steps can): the
 * object is left out with the reason, and the sync's other objects are read on a new thread.
 * Threads are started on demand, kept for the jobs that follow (ended after EXPANSION_IDLE_MS
 * without one), and never keep the process alive.
 */
export class ExpansionWorkers implements CalendarExpander {
  private readonly limits: ExpansionLimits;
  /** Threads with no job, each with the timer that ends it. */
  private readonly idle = new Map<Worker, ReturnType<typeof setTimeout>>();
  private readonly live = new Set<Worker>();
  /** Jobs waiting for a thread, in order. */
  private readonly waiting: ((worker: Worker) => void)[] = [];
  /** Aborted by close(): the expansions under way end with it. */
  private closing = new AbortController();

  constructor(limits: Partial<ExpansionLimits> = {}) {
    this.limits = { deadlineMs: EXPANSION_DEADLINE_MS, memoryBytes: EXPANSION_MEMORY_BYTES, threads: defaultThreads(), idleMs: EXPANSION_IDLE_MS, ...limits };
  }

  async expandObjects(
    objects: readonly Pick<BusyObject, "href" | "ics">[],
    window: BusyWindow,
    floatingZone: string,
    given: AbortSignal,
  ): Promise<ObjectsExpansion> {
    const signal = AbortSignal.any([given, this.closing.signal]);
    signal.throwIfAborted();
    const outcome: ObjectsExpansion = { intervals: [], errors: [] };
    let rest = objects.map(({ href, ics }) => ({ href, ics }));
    while (rest.length > 0) {
      const worker = await this.acquire(signal);
      let ran: { read: number; givenUp: boolean };
      try {
        ran = await this.run(worker, { objects: rest, window, floatingZone }, signal, outcome);
      } catch (error) {
        this.discard(worker);
        throw error;
      }
      if (!ran.givenUp) {
        this.release(worker);
        break;
      }
      // The thread was given up on an object, recorded with why: the objects after it go on a new one.
      this.discard(worker);
      rest = rest.slice(ran.read);
    }
    return outcome;
  }

  async close(): Promise<void> {
    this.closing.abort(new Error("the calendar reader was closed"));
    this.closing = new AbortController();
    for (const worker of this.live) worker.terminate();
    this.live.clear();
    for (const timer of this.idle.values()) clearTimeout(timer);
    this.idle.clear();
  }

  /** Threads under way, idle ones included: what tests look at. */
  get threads(): number {
    return this.live.size;
  }

  private acquire(signal: AbortSignal): Promise<Worker> {
    for (const [worker, timer] of this.idle) {
      clearTimeout(timer);
      this.idle.delete(worker);
      return Promise.resolve(worker);
    }
    if (this.live.size < this.limits.threads) return Promise.resolve(this.spawn());
    return new Promise((resolve, reject) => {
      const take = (worker: Worker) => {
        signal.removeEventListener("abort", giveUp);
        resolve(worker);
      };
      const giveUp = () => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        reject(signal.reason);
      };
      signal.addEventListener("abort", giveUp, { once: true });
      this.waiting.push(take);
    });
  }

  private release(worker: Worker): void {
    const next = this.waiting.shift();
    if (next) return void next(worker);
    const timer = setTimeout(() => {
      this.idle.delete(worker);
      this.live.delete(worker);
      worker.terminate();
    }, this.limits.idleMs);
    timer.unref();
    this.idle.set(worker, timer);
  }

  /** Ends a thread that failed or was given up, and starts another for a job waiting. */
  private discard(worker: Worker): void {
    worker.terminate();
    this.live.delete(worker);
    const next = this.waiting.shift();
    if (next) next(this.spawn());
  }

  private spawn(): Worker {
    const worker = new Worker(new URL("./expansion-worker.ts", import.meta.url).href, { ref: false });
    this.live.add(worker);
    return worker;
  }

  /**
   * Runs the job on the thread, adding to `outcome` as objects are read; answers how many objects
   * were done and whether the thread was given up (past a limit, or failing), then on the object
   * under way, which counts as done and is in `outcome.errors` with the reason.
   */
  private run(worker: Worker, job: ExpansionJob, signal: AbortSignal, outcome: ObjectsExpansion): Promise<{ read: number; givenUp: boolean }> {
    const { deadlineMs, memoryBytes } = this.limits;
    return new Promise<{ read: number; givenUp: boolean }>((resolve, reject) => {
      // Aborted while the job waited for its thread: no abort event is coming.
      signal.throwIfAborted();
      let done = 0;
      const startRss = process.memoryUsage().rss;
      let deadline: ReturnType<typeof setTimeout> | undefined;
      const end = () => {
        clearTimeout(deadline);
        clearInterval(memory);
        signal.removeEventListener("abort", aborted);
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        worker.removeEventListener("close", onClose);
      };
      /**
       * Ends the job at the object under way, left out with `reason`. That is the first object not
       * reported read, also when its start is not reported yet (the thread reports it as it starts).
       */
      const giveUp = (reason: string) => {
        end();
        const object = job.objects[done];
        if (object) outcome.errors.push({ href: object.href, reason: `${reason}; given up` });
        resolve({ read: object ? done + 1 : done, givenUp: true });
      };
      const startDeadline = () => {
        clearTimeout(deadline);
        deadline = setTimeout(() => giveUp(`reading it took longer than ${deadlineMs / 1000} s`), deadlineMs);
      };
      startDeadline();
      const memory = setInterval(() => {
        if (process.memoryUsage().rss - startRss > memoryBytes) giveUp(`reading it took more than ${Math.round(memoryBytes / 1024 ** 2)} MiB of memory`);
      }, MEMORY_SAMPLE_MS);
      const aborted = () => {
        end();
        reject(signal.reason);
      };
      const onMessage = (event: MessageEvent<ExpansionReport>) => {
        const report = event.data;
        if (report.kind === "start") startDeadline();
        else if (report.kind === "read") {
          for (let i = 0; i + 1 < report.intervals.length; i += 2) outcome.intervals.push({ startMs: report.intervals[i]!, endMs: report.intervals[i + 1]! });
          done++;
        } else if (report.kind === "unreadable") {
          outcome.errors.push({ href: report.href, reason: report.reason });
          done++;
        } else {
          end();
          resolve({ read: done, givenUp: false });
        }
      };
      const onError = (event: ErrorEvent) => giveUp(`reading it stopped the reader (${event.message})`);
      const onClose = () => giveUp("reading it stopped the reader");
      signal.addEventListener("abort", aborted, { once: true });
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      worker.addEventListener("close", onClose);
      worker.postMessage(job);
    });
  }
}
