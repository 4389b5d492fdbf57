/**
 * A cache of values by key within a budget (bytes, or a number of values) that evicts by the clock
 * algorithm: a value is marked used when stored and at each hit; to make room, a hand goes round
 * the values in insertion order, sparing a used one (and unmarking it) and evicting the first one
 * not used since the hand last passed.
 *
 * Nothing moves on a hit. Keeping a Map in order of use (delete a hit, set it again) costs V8 time
 * in proportion to the Map's size: the key's deleted copies pile up in its bucket until the table
 * is rebuilt, and each lookup of it reads them. With thousands of answers cached, that cost more
 * than the rest of sending a cached answer (decision 24).
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

  /** The value cached under `key`, marked used. */
  get(key: Key): Value | undefined {
    const entry = this.kept.get(key);
    if (!entry) return undefined;
    entry.used = true;
    return entry.value;
  }

  /** The value cached under `key`, not marked used (to check that it is still the one cached). */
  peek(key: Key): Value | undefined {
    return this.kept.get(key)?.value;
  }

  has(key: Key): boolean {
    return this.kept.has(key);
  }

  /** Stores `value` under `key` (in the place of the one cached there, if any), then makes room. */
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
