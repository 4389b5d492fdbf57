import { describe, expect, it } from 'vitest';
import type { Condition, SearchQuery } from '@furniture/contract';
import { chooseFacetSource, choosePageShape, plannedOnce, type FacetSource, type FacetSourceInput, type PageShape, type PageShapeInput } from './shape.ts';
import { COLLECT_UP_TO, FACET_SAMPLE_FROM, NAME_INDEX_UP_TO } from './thresholds.ts';

const chairs = 'c0000000-0000-4000-8000-000000000001';
const tables = 'c0000000-0000-4000-8000-000000000002';

/** Stored counts of a search's words: at most `listings` hold every word, all Good chairs unless groups are given. */
const words = (
  listings: number,
  { inName = listings, others = 0, groups = [{ categoryId: chairs, condition: 'Good', listings }] as { categoryId: string; condition: Condition; listings: number }[] } = {},
) => ({
  fewest: { anywhere: listings, inName },
  othersAtMost: others,
  fewestByGroup: groups,
});

describe('where a search’s facet counts come from', () => {
  const base: FacetSourceInput = { storedCounts: false, words: null, placesFound: null, sampleFrom: FACET_SAMPLE_FROM };
  const rows: [string, Partial<FacetSourceInput>, FacetSource][] = [
    ['one word or a location and no other filter', { storedCounts: true, words: words(50_000) }, 'stored counts'],
    ['no words (a price range, say)', {}, 'count'],
    ['words no group holds together', { words: words(0, { groups: [] }) }, 'no match'],
    ['a word rarer than the sample’s threshold', { words: words(FACET_SAMPLE_FROM - 1) }, 'count'],
    ['every word common', { words: words(FACET_SAMPLE_FROM) }, 'sample, else count'],
    ['every word common, in places holding half the catalogue', { words: words(FACET_SAMPLE_FROM), placesFound: { listings: 50_000, catalogue: 100_000 } }, 'sample, else count'],
    ['every word common, in a town too small for the sample to hold enough', { words: words(FACET_SAMPLE_FROM), placesFound: { listings: 500, catalogue: 1_000_000 } }, 'count, then sample'],
    ['every word common, in many places (no count of their listings)', { words: words(FACET_SAMPLE_FROM), placesFound: { listings: null, catalogue: 1_000_000 } }, 'sample, else count'],
    ['the app’s setting lowers the threshold', { words: words(10), sampleFrom: 10 }, 'sample, else count'],
  ];
  it.each(rows)('%s', (_name, input, expected) => {
    expect(chooseFacetSource({ ...base, ...input })).toBe(expected);
  });
});

describe('how a search’s pages find their matches', () => {
  const base: PageShapeInput = { words: words(10), within: {}, facetCount: null, countedIds: false, placeWords: false, cursorSaysFew: false };
  const shape = (overrides: Partial<PageShape>): PageShape => ({
    matchesAtMost: 10,
    collectAll: true,
    collectNamed: true,
    matchesFrom: null,
    countOthersInPlaces: false,
    noOthers: true,
    ...overrides,
  });
  const many = COLLECT_UP_TO + 1;
  const rows: [string, Partial<PageShapeInput>, PageShape][] = [
    ['rare words: every match collected and sorted', {}, shape({})],
    ['no listing holds every word: no page is read', { words: words(0, { groups: [] }) }, shape({ matchesAtMost: 0 })],
    [
      'common words named in few listings: read in order, the names collected',
      { words: words(many, { inName: NAME_INDEX_UP_TO, others: 5 }) },
      shape({ matchesAtMost: many, collectAll: false, noOthers: false }),
    ],
    [
      'common words named in many listings: both read in order',
      { words: words(many, { inName: NAME_INDEX_UP_TO + 1 }) },
      shape({ matchesAtMost: many, collectAll: false, collectNamed: false }),
    ],
    [
      'common words, held in another category than the one asked',
      { words: words(many, { inName: many, groups: [{ categoryId: tables, condition: 'Good', listings: many }] }), within: { categoryId: chairs } },
      shape({ matchesAtMost: 0 }),
    ],
    [
      'common words the first page counted few of, by this search: read by id',
      { words: words(many, { inName: many }), facetCount: { groups: [{ categoryId: chairs, condition: 'Good', count: 12 }], complete: true }, countedIds: true },
      shape({ matchesAtMost: 12, matchesFrom: 'counted ids' }),
    ],
    [
      'common words a cached count found few of: collected, not by id',
      { words: words(many, { inName: many }), facetCount: { groups: [{ categoryId: chairs, condition: 'Good', count: 12 }], complete: true } },
      shape({ matchesAtMost: 12 }),
    ],
    [
      'common words whose count stopped at its limit',
      { words: words(many, { inName: many }), facetCount: { groups: [{ categoryId: chairs, condition: 'Good', count: many }], complete: false }, countedIds: true },
      shape({ matchesAtMost: many, collectAll: false, collectNamed: false }),
    ],
    [
      'common words counted few of, only the condition asked for',
      {
        words: words(many * 2, { inName: many, groups: [{ categoryId: chairs, condition: 'Good', listings: many }, { categoryId: chairs, condition: 'Fair', listings: many }] }),
        within: { condition: ['Fair'] },
        facetCount: { groups: [{ categoryId: chairs, condition: 'Good', count: 12 }, { categoryId: chairs, condition: 'Fair', count: 3 }], complete: true },
        countedIds: true,
      },
      shape({ matchesAtMost: 3, matchesFrom: 'counted ids' }),
    ],
    ['rare words in a town: through the place words', { placeWords: true }, shape({ matchesFrom: 'place words' })],
    [
      'common words in a town: read in order, the others counted there first',
      { words: words(many, { inName: many, others: 3 }), placeWords: true },
      shape({ matchesAtMost: many, collectAll: false, collectNamed: false, countOthersInPlaces: true, noOthers: false }),
    ],
    [
      'a later page whose cursor says its town held few',
      { words: words(many, { inName: many }), placeWords: true, cursorSaysFew: true },
      shape({ matchesAtMost: many, matchesFrom: 'place words' }),
    ],
    [
      'a cursor saying few, without place words, changes nothing',
      { words: words(many, { inName: many }), cursorSaysFew: true },
      shape({ matchesAtMost: many, collectAll: false, collectNamed: false }),
    ],
  ];
  it.each(rows)('%s', (_name, input, expected) => {
    expect(choosePageShape({ ...base, ...input })).toEqual(expected);
  });
});

describe('which searches are planned once for any value', () => {
  const rows: [string, SearchQuery, boolean][] = [
    ['browsing, newest first', {}, true],
    ['a category and conditions by price', { categoryId: chairs, condition: ['Good'], sort: 'price-asc' }, true],
    ['a later page', { cursor: 'x', inStock: false }, true],
    ['another page size', { limit: 10 }, false],
    ['words', { q: 'oak' }, false],
    ['words, newest first', { q: 'oak', sort: 'newest' }, false],
    ['a place', { location: 'Dhanmondi' }, false],
    ['a price bound', { maxPrice: 300 }, false],
    ['near a point', { near: { lat: 23.7, lon: 90.4 }, sort: 'distance' }, false],
  ];
  it.each(rows)('%s', (_name, query, expected) => {
    expect(plannedOnce(query)).toBe(expected);
  });
});
