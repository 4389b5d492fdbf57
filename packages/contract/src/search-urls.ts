/**
 * The search page's URL and the API read it makes, apart from the search's schemas: the page's
 * first script and the app's start use these, and zod's schemas are not to come with them.
 */

/** The names of the search page's URL parameters that are filters (all but q and sort). */
export const searchFilterNames = [
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
  'near',
  'nearPlace',
  'radiusKm',
  'bbox',
] as const;

/** The parameters of a search page's URL that the API understands, blanks dropped, in a stable order. */
export function apiSearchOf(params: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const name of ['q', ...searchFilterNames, 'sort']) {
    for (const value of params.getAll(name)) if (value.trim() !== '') out.append(name, value.trim());
  }
  return out.toString();
}

/**
 * The API path (below /api) of a page of results for a search (`apiSearchOf`): the web app asks for
 * it, and the server answers the first page into the search page's HTML under the same URL (decision 29).
 */
export function searchProductsPath(search: string, cursor: string | null = null): string {
  const params = new URLSearchParams(search);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return `/products${query ? `?${query}` : ''}`;
}
