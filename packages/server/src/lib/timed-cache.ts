/** An entry that holds while its revision matches and the clock is before `validUntilMs`. */
interface Entry<V> {
  revision: number;
  validUntilMs: number;
  value: V;
}

/**
 * A bounded in-process cache of derived answers. An entry is served only for the revision it was
 * computed from and until the instant it could change by time alone; the oldest entry goes first
 * when full.
 */
export class TimedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(private readonly capacity: number) {}

  get(key: string, revision: number, nowMs: number): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.revision !== revision || nowMs >= e.validUntilMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: string, revision: number, validUntilMs: number, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { revision, validUntilMs, value });
  }
}
