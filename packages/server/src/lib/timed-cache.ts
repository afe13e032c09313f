/** An entry that holds while its revision matches and the clock is before `validUntilMs`. */
interface Entry<V> {
  revision: number;
  validUntilMs: number;
  value: V;
  /** Weight when stored; a value may grow later (a page gains compressed forms), its count does not. */
  weight: number;
}

/**
 * A bounded in-process cache of derived answers. An entry is served only for the revision it was
 * computed from and until the instant it could change by time alone. It holds at most `capacity`
 * entries and, when `weigh` is given, at most `maxWeight` in all (bytes, say); the oldest entry goes
 * first, and a value heavier than a quarter of the whole is not kept at all.
 */
export class TimedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private weight = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
    private readonly weigh: (value: V) => number = () => 0,
  ) {}

  get(key: string, revision: number, nowMs: number): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.revision !== revision || nowMs >= e.validUntilMs) {
      this.remove(key);
      return undefined;
    }
    return e.value;
  }

  set(key: string, revision: number, validUntilMs: number, value: V): void {
    this.remove(key);
    const weight = this.weigh(value);
    if (weight > this.maxWeight / 4) return;
    while (this.entries.size > 0 && (this.entries.size >= this.capacity || this.weight + weight > this.maxWeight))
      this.remove(this.entries.keys().next().value!);
    this.entries.set(key, { revision, validUntilMs, value, weight });
    this.weight += weight;
  }

  private remove(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.weight -= e.weight;
    this.entries.delete(key);
  }
}
