import { describe, expect, it } from 'vitest';
import { KeptByUse } from './kept-by-use.ts';

const keys = <Key, Value>(kept: KeptByUse<Key, Value>, asked: Key[]) => asked.filter((key) => kept.has(key));

describe('values kept by use', () => {
  it('drops values in the order they were kept, sparing once each one used since the hand last passed', () => {
    const kept = new KeptByUse<string, number>(3);
    kept.set('a', 1);
    kept.set('b', 2);
    kept.set('c', 3);
    // Every value is new, so used: the hand goes round once, then drops the oldest.
    kept.set('d', 4);
    expect(keys(kept, ['a', 'b', 'c', 'd'])).toEqual(['b', 'c', 'd']);
    expect(kept.get('b')).toBe(2);
    // b was used since: spared, and c goes.
    kept.set('e', 5);
    expect(keys(kept, ['b', 'c', 'd', 'e'])).toEqual(['b', 'd', 'e']);
    kept.set('f', 6);
    expect(keys(kept, ['b', 'd', 'e', 'f'])).toEqual(['b', 'e', 'f']);
    // Round again: e and f, new, are spared once; b, spared before and unused since, goes.
    kept.set('g', 7);
    expect(keys(kept, ['b', 'e', 'f', 'g'])).toEqual(['e', 'f', 'g']);
  });

  it('keeps at most its budget however its values are used', () => {
    const kept = new KeptByUse<number, number>(4);
    for (let key = 0; key < 100; key++) {
      kept.set(key, key);
      if (key % 3 === 0) kept.get(key - 1);
      expect(kept.size).toBe(Math.min(key + 1, 4));
      expect(kept.has(key)).toBe(true);
    }
  });

  it('counts each value by its size, replaced in its place, deleted or cleared', () => {
    const kept = new KeptByUse<string, string>(10, (value) => value.length);
    kept.set('a', 'xxxx');
    kept.set('b', 'yyyy');
    // Replacing a value keeps its place and counts its new size: 2 + 4 bytes.
    kept.set('a', 'zz');
    kept.set('c', 'ww');
    expect(keys(kept, ['a', 'b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(kept.peek('a')).toBe('zz');
    // 12 bytes: after a round, a, the oldest, goes.
    kept.set('d', 'vvvv');
    expect(keys(kept, ['a', 'b', 'c', 'd'])).toEqual(['b', 'c', 'd']);
    kept.delete('b');
    kept.set('e', 'uuuu');
    expect(keys(kept, ['c', 'd', 'e'])).toEqual(['c', 'd', 'e']);
    kept.clear();
    expect(kept.size).toBe(0);
    kept.set('f', 'tttttttttt');
    expect(kept.get('f')).toBe('tttttttttt');
  });

  it('does not mark a value used when it is only looked at', () => {
    const kept = new KeptByUse<string, number>(2);
    kept.set('a', 1);
    kept.set('b', 2);
    kept.set('c', 3);
    expect(keys(kept, ['a', 'b', 'c'])).toEqual(['b', 'c']);
    expect(kept.peek('b')).toBe(2);
    kept.set('d', 4);
    expect(keys(kept, ['b', 'c', 'd'])).toEqual(['c', 'd']);
  });
});
