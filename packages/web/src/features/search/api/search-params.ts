import { conditions, type Condition, type SearchSort } from '@furniture/contract';

/** The names of the search page's URL parameters that are filters (all but q and sort). */
export const filterNames = [
  'categoryId',
  'condition',
  'minPrice',
  'maxPrice',
  'location',
  'sellerVerified',
  'inStock',
  'spaceWidth',
  'spaceDepth',
  'spaceHeight',
  'doorWidth',
  'doorHeight',
] as const;

/** The parameters of the URL that the API understands, blanks dropped, in a stable order. */
export function apiSearchOf(params: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const name of ['q', ...filterNames, 'sort']) {
    for (const value of params.getAll(name)) if (value.trim() !== '') out.append(name, value.trim());
  }
  return out.toString();
}

export function hasFilters(params: URLSearchParams): boolean {
  return filterNames.some((name) => params.getAll(name).some((value) => value.trim() !== ''));
}

export function selectedConditions(params: URLSearchParams): Condition[] {
  return params.getAll('condition').filter((value): value is Condition => (conditions as readonly string[]).includes(value));
}

export function sortOf(params: URLSearchParams): SearchSort {
  const sort = params.get('sort');
  if (sort === 'newest' || sort === 'price-asc' || sort === 'price-desc') return sort;
  return params.get('q') ? 'relevance' : 'newest';
}
