/** Source of the current time, injected so expiry and "today" are testable without sleeping. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/** The machine's clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that stands still until moved; for tests and benchmarks. */
export class ManualClock implements Clock {
  private ms: number;
  constructor(start: string | number) {
    this.ms = typeof start === "number" ? start : Date.parse(start);
    if (Number.isNaN(this.ms)) throw new Error(`not an instant: ${start}`);
  }
  now(): number {
    return this.ms;
  }
  set(iso: string): void {
    this.ms = Date.parse(iso);
  }
  advance(minutes: number): void {
    this.ms += minutes * 60_000;
  }
}
