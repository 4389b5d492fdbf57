import type { FastifyRequest } from 'fastify';
import type { DataVersions, WatchedTable } from './data-versions.ts';

/**
 * The one cache of the app server (decision 49): values by name, each stored with the data
 * versions (data-versions.ts) of the tables it was computed from, and used only while those are
 * still the versions a request sees. A change committed through any server before a request
 * arrives has been heard by then, so what is cached is correct at once on every server. The caller
 * says which tables a value depends on; nothing that computes a value knows it is cached. When
 * notifications may have been missed, everything cached is dropped; while the listening connection
 * is down, nothing is cached or used.
 *
 * Bounded by a budget (bytes, or a number of values), evicted by the clock algorithm: a value is
 * marked used when stored and at each hit; to make room, a hand goes round the values in insertion
 * order, sparing a used one (and unmarking it) and evicting the first one not used since the hand
 * last passed. Nothing moves on a hit: keeping a Map in order of use (delete a hit, set it again)
 * costs V8 time in proportion to the Map's size.
 */
export class VersionedCache<Value> {
  private readonly entries = new Map<string, { value: Value; versions: string; size: number; used: boolean }>();
  /** Where the hand is: an iterator over the Map, which sees the values added and deleted since. */
  private hand: Iterator<[string, { used: boolean }]> | null = null;
  private total = 0;

  /** `sizeOf` gives each value's share of the budget (1 each unless given). */
  constructor(
    private readonly dataVersions: Pick<DataVersions, 'current' | 'onForget'>,
    private readonly budget: number,
    private readonly sizeOf: (value: Value) => number = () => 1,
  ) {
    dataVersions.onForget(() => this.clear());
  }

  /** The versions of `tables` as of the request's arrival, which a value must carry to be used; null: nothing may be cached now. */
  versionsFor(request: Pick<FastifyRequest, 'caughtUp'>, tables: readonly WatchedTable[]): Promise<string | null> {
    return this.dataVersions.current(request, tables);
  }

  /** The value cached under `name` at these versions, marked used; undefined when none is, or it was computed under others. */
  get(name: string, versions: string | null): Value | undefined {
    const entry = this.entries.get(name);
    if (!entry || versions === null || entry.versions !== versions) return undefined;
    entry.used = true;
    return entry.value;
  }

  /** Whether a value is cached under `name`, current or not. */
  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Stores `value` computed under `versions` (in the place of the one cached there, if any), then makes room. Nothing is stored under null. */
  set(name: string, versions: string | null, value: Value) {
    if (versions === null) return;
    const size = this.sizeOf(value);
    const entry = this.entries.get(name);
    if (entry) {
      this.total += size - entry.size;
      Object.assign(entry, { value, versions, size });
    } else {
      this.entries.set(name, { value, versions, size, used: true });
      this.total += size;
    }
    this.makeRoom();
  }

  delete(name: string) {
    const entry = this.entries.get(name);
    if (!entry) return;
    this.entries.delete(name);
    this.total -= entry.size;
  }

  clear() {
    this.entries.clear();
    this.total = 0;
    this.hand = null;
  }

  get size() {
    return this.entries.size;
  }

  /**
   * The value of `name` for this request: the cached one while `tables` are at the versions it was
   * read under, else `read()`'s, cached. Requests asking while a read is under way share it; a
   * failed read is not cached. For values that are promises of what was read.
   */
  async read(request: Pick<FastifyRequest, 'caughtUp'>, tables: readonly WatchedTable[], name: string, read: () => Value): Promise<Value> {
    const versions = await this.versionsFor(request, tables);
    if (versions === null) return read();
    const cached = this.get(name, versions);
    if (cached !== undefined) return cached;
    const fresh = read();
    this.set(name, versions, fresh);
    if (fresh instanceof Promise) {
      fresh.catch(() => this.entries.get(name)?.value === fresh && this.delete(name));
    }
    return fresh;
  }

  private makeRoom() {
    while (this.total > this.budget && this.entries.size > 0) {
      let next = this.hand?.next();
      if (!next || next.done) {
        this.hand = this.entries.entries();
        next = this.hand.next();
      }
      const [name, entry] = next.value as [string, { used: boolean }];
      if (entry.used) entry.used = false;
      else this.delete(name);
    }
  }
}
