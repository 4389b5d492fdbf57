import { describe, expect, it } from 'vitest';
import type { WatchedTable } from './data-versions.ts';
import { VersionedCache } from './versioned-cache.ts';

/** Data versions as the plugin keeps them, moved by hand: `change` is a committed write heard, `forget` a lost connection. */
function fakeVersions() {
  const tableVersions = new Map<string, number>();
  const forgetHandlers: (() => void)[] = [];
  let listening = true;
  return {
    async current(_request: unknown, tables: readonly WatchedTable[]) {
      return listening ? tables.map((table) => tableVersions.get(table) ?? 0).join('.') : null;
    },
    onForget: (handler: () => void) => void forgetHandlers.push(handler),
    change: (table: WatchedTable) => tableVersions.set(table, (tableVersions.get(table) ?? 0) + 1),
    forget: () => forgetHandlers.forEach((handler) => handler()),
    stopListening: () => (listening = false),
  };
}

const request = { caughtUp: null };
const V = '0';
const names = <Value>(cache: VersionedCache<Value>, asked: string[]) => asked.filter((name) => cache.has(name));

describe('the versioned cache', () => {
  it('answers a value only at the versions it was computed under', async () => {
    const versions = fakeVersions();
    const cache = new VersionedCache<string>(versions, 10);
    const before = await cache.versionsFor(request, ['products']);
    cache.set('search', before, 'answer');
    expect(cache.get('search', await cache.versionsFor(request, ['products']))).toBe('answer');
    // A change to another table leaves it current; one to its own makes it stale.
    versions.change('users');
    expect(cache.get('search', await cache.versionsFor(request, ['products']))).toBe('answer');
    versions.change('products');
    expect(cache.get('search', await cache.versionsFor(request, ['products']))).toBeUndefined();
  });

  it('stores and answers nothing while the listening connection is down, and drops everything when notifications may have been missed', async () => {
    const versions = fakeVersions();
    const cache = new VersionedCache<string>(versions, 10);
    cache.set('a', V, 'answer');
    versions.forget();
    expect(cache.size).toBe(0);
    versions.stopListening();
    const none = await cache.versionsFor(request, ['products']);
    cache.set('b', none, 'answer');
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a', none)).toBeUndefined();
  });

  it('reads a value once for the requests asking together, again once its tables change, and caches no failed read', async () => {
    const versions = fakeVersions();
    const cache = new VersionedCache<Promise<number>>(versions, 10);
    let reads = 0;
    const read = () => Promise.resolve(++reads);
    expect(await Promise.all([cache.read(request, ['products'], 'n', read), cache.read(request, ['products'], 'n', read)])).toEqual([1, 1]);
    versions.change('products');
    expect(await cache.read(request, ['products'], 'n', read)).toBe(2);
    versions.change('products');
    await expect(cache.read(request, ['products'], 'n', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(cache.has('n')).toBe(false);
    expect(await cache.read(request, ['products'], 'n', read)).toBe(3);
  });

  it('drops values in the order they were stored, sparing once each one used since the hand last passed', () => {
    const cache = new VersionedCache<number>(fakeVersions(), 3);
    cache.set('a', V, 1);
    cache.set('b', V, 2);
    cache.set('c', V, 3);
    // Every value is new, so used: the hand goes round once, then drops the oldest.
    cache.set('d', V, 4);
    expect(names(cache, ['a', 'b', 'c', 'd'])).toEqual(['b', 'c', 'd']);
    expect(cache.get('b', V)).toBe(2);
    // b was used since: spared, and c goes.
    cache.set('e', V, 5);
    expect(names(cache, ['b', 'c', 'd', 'e'])).toEqual(['b', 'd', 'e']);
    cache.set('f', V, 6);
    expect(names(cache, ['b', 'd', 'e', 'f'])).toEqual(['b', 'e', 'f']);
    // Round again: e and f, new, are spared once; b, spared before and unused since, goes.
    cache.set('g', V, 7);
    expect(names(cache, ['b', 'e', 'f', 'g'])).toEqual(['e', 'f', 'g']);
  });

  it('holds at most its budget however its values are used', () => {
    const cache = new VersionedCache<number>(fakeVersions(), 4);
    for (let key = 0; key < 100; key++) {
      cache.set(String(key), V, key);
      if (key % 3 === 0) cache.get(String(key - 1), V);
      expect(cache.size).toBe(Math.min(key + 1, 4));
      expect(cache.has(String(key))).toBe(true);
    }
  });

  it('counts each value by its size, replaced in its place, deleted or cleared', () => {
    const cache = new VersionedCache<string>(fakeVersions(), 10, (value) => value.length);
    cache.set('a', V, 'xxxx');
    cache.set('b', V, 'yyyy');
    // Replacing a value keeps its place and counts its new size: 2 + 4 bytes.
    cache.set('a', V, 'zz');
    cache.set('c', V, 'ww');
    expect(names(cache, ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    // 12 bytes: after a round, a, the oldest, goes.
    cache.set('d', V, 'vvvv');
    expect(names(cache, ['a', 'b', 'c', 'd'])).toEqual(['b', 'c', 'd']);
    cache.delete('b');
    cache.set('e', V, 'uuuu');
    expect(names(cache, ['c', 'd', 'e'])).toEqual(['c', 'd', 'e']);
    cache.clear();
    expect(cache.size).toBe(0);
    cache.set('f', V, 'tttttttttt');
    expect(cache.get('f', V)).toBe('tttttttttt');
  });

  it('does not mark a stale value used when it is asked at other versions', () => {
    const cache = new VersionedCache<number>(fakeVersions(), 2);
    cache.set('a', V, 1);
    cache.set('b', V, 2);
    cache.set('c', V, 3);
    expect(names(cache, ['a', 'b', 'c'])).toEqual(['b', 'c']);
    expect(cache.get('b', '1')).toBeUndefined();
    cache.set('d', V, 4);
    expect(names(cache, ['b', 'c', 'd'])).toEqual(['c', 'd']);
  });
});
