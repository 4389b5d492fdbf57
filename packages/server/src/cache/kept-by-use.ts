/**
 * Values kept by key within a budget (bytes, or a number of values), those least used lately going
 * first to make room, by the clock algorithm: a value is marked used when kept and at each hit; to
 * make room, a hand goes round the values in the order they were kept, sparing a used one (and
 * unmarking it) and dropping the first one not used since the hand last passed.
 *
 * Nothing moves on a hit. Keeping a Map in order of use (delete a hit, set it again) costs V8 time
 * in proportion to the Map's size: the key's deleted copies pile up in its bucket until the table
 * is rebuilt, so each lookup of it walks them. With 14,000 answers kept, that was 11 µs a hit,
 * more than the rest of sending a kept answer (decision 24).
 */
export class KeptByUse<Key, Value> {
  private readonly kept = new Map<Key, { value: Value; size: number; used: boolean }>();
  /** Where the hand is: an iterator over the Map, which sees the values added and deleted since. */
  private hand: Iterator<[Key, { used: boolean }]> | null = null;
  private total = 0;

  /** `sizeOf` gives each value's share of the budget (1 each unless given). */
  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: Value) => number = () => 1,
  ) {}

  /** The value kept under `key`, marked used. */
  get(key: Key): Value | undefined {
    const entry = this.kept.get(key);
    if (!entry) return undefined;
    entry.used = true;
    return entry.value;
  }

  /** The value kept under `key`, not marked used (to check that it is still the one kept). */
  peek(key: Key): Value | undefined {
    return this.kept.get(key)?.value;
  }

  has(key: Key): boolean {
    return this.kept.has(key);
  }

  /** Keeps `value` under `key` (in the place of the one kept there, if any), then makes room. */
  set(key: Key, value: Value) {
    const size = this.sizeOf(value);
    const entry = this.kept.get(key);
    if (entry) {
      this.total += size - entry.size;
      Object.assign(entry, { value, size });
    } else {
      this.kept.set(key, { value, size, used: true });
      this.total += size;
    }
    this.makeRoom();
  }

  delete(key: Key) {
    const entry = this.kept.get(key);
    if (!entry) return;
    this.kept.delete(key);
    this.total -= entry.size;
  }

  clear() {
    this.kept.clear();
    this.total = 0;
    this.hand = null;
  }

  get size() {
    return this.kept.size;
  }

  private makeRoom() {
    while (this.total > this.budget && this.kept.size > 0) {
      let next = this.hand?.next();
      if (!next || next.done) {
        this.hand = this.kept.entries();
        next = this.hand.next();
      }
      const [key, entry] = next.value as [Key, { used: boolean }];
      if (entry.used) entry.used = false;
      else this.delete(key);
    }
  }
}
