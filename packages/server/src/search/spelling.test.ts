import { describe, expect, it } from 'vitest';
import { closestTerm, editDistance, wordsOneEditAway } from './spelling.ts';

describe('editDistance', () => {
  it('counts a swap of two neighbouring letters as one edit, like a left-out, added or changed letter', () => {
    expect(editDistance('chiar', 'chair')).toBe(1);
    expect(editDistance('sofaa', 'sofa')).toBe(1);
    expect(editDistance('tabel', 'tabl')).toBe(1);
    expect(editDistance('dreser', 'dresser')).toBe(1);
    expect(editDistance('wardorb', 'wardrob')).toBe(1);
    expect(editDistance('dresr', 'dresser')).toBe(2);
    expect(editDistance('chair', 'chair')).toBe(0);
    expect(editDistance('', 'oak')).toBe(3);
    expect(editDistance('oak', 'teak')).toBe(2);
  });
});

describe('wordsOneEditAway', () => {
  it('holds the swaps, left-out, added and changed letters of a word, and not the word itself', () => {
    const variants = wordsOneEditAway('chiar');
    for (const word of ['chair', 'hiar', 'chiarr', 'chian', 'xchiar']) expect(variants).toContain(word);
    expect(variants).not.toContain('chiar');
    for (const variant of variants) expect(editDistance('chiar', variant)).toBe(1);
  });
});

describe('closestTerm', () => {
  it('takes the fewest edits, then the commonest word, then the first alphabetically, and nothing too far', () => {
    expect(closestTerm('chiar', [{ term: 'chest', frequency: 0.2 }, { term: 'chair', frequency: 0.01 }])).toBe('chair');
    expect(closestTerm('bech', [{ term: 'beech', frequency: 0.01 }, { term: 'bench', frequency: 0.05 }])).toBe('bench');
    expect(closestTerm('bech', [{ term: 'bench', frequency: 0 }, { term: 'beech', frequency: 0 }])).toBe('beech');
    // Short words allow one edit, longer ones two.
    expect(closestTerm('bd', [{ term: 'bed', frequency: 0.1 }])).toBe('bed');
    expect(closestTerm('bdd', [{ term: 'bed', frequency: 0.1 }])).toBe('bed');
    expect(closestTerm('bxxd', [{ term: 'bed', frequency: 0.1 }])).toBeUndefined();
    expect(closestTerm('qxzvjk', [{ term: 'oak', frequency: 0.1 }])).toBeUndefined();
  });
});
