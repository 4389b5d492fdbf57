import { conditions, searchFilterNames, type Condition, type SearchSort } from '@furniture/contract';

export function hasFilters(params: URLSearchParams): boolean {
  return searchFilterNames.some((name) => params.getAll(name).some((value) => value.trim() !== ''));
}

export function selectedConditions(params: URLSearchParams): Condition[] {
  return params.getAll('condition').filter((value): value is Condition => (conditions as readonly string[]).includes(value));
}

export function sortOf(params: URLSearchParams): SearchSort {
  const sort = params.get('sort');
  if (sort === 'newest' || sort === 'price-asc' || sort === 'price-desc') return sort;
  if (sort === 'distance' && (params.has('near') || params.has('nearPlace'))) return sort;
  return params.get('q') ? 'relevance' : 'newest';
}
