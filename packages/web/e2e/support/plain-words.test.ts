import { describe, expect, it } from 'vitest';
import { developerWords } from './plain-words.ts';

describe('developerWords', () => {
  it('finds code names of fields and a validator’s wording', () => {
    expect(developerWords('doorHeight is needed with the other door measurement')).toEqual(['doorHeight']);
    expect(developerWords('Lowest price must not be more than maxPrice.')).toEqual(['maxPrice']);
    expect(developerWords('Invalid input: expected number, received string')).toEqual(['Invalid input', 'expected number, received']);
  });

  it('lets plain sentences, addresses and e-mail addresses through', () => {
    expect(developerWords('Lowest price must not be more than the highest price.')).toEqual([]);
    expect(developerWords('Write to shop.owner@example.com or open /dashboard/myOrders')).toEqual([]);
    expect(developerWords('PostgreSQL, McDonald and iPhone-free')).toEqual([]);
  });
});
