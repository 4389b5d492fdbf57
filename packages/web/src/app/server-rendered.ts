import { apiSearchOf, matchWebRoute, webRoutes } from '@furniture/contract';
import { matchRoutes, type HydrationState, type LoaderFunctionArgs } from 'react-router';
import { appConfigQuery } from '../lib/app-config.ts';
import { queryClient } from '../lib/query-client.ts';
import { advertisedProductsQuery } from '../features/products/api/get-advertised-products.ts';
import { searchProductsQuery } from '../features/search/api/search-products.ts';
import { routes } from './router.tsx';

/**
 * Makes the app ready to render a page the server renders (decision 29), from the page's first
 * answers, on the server and in the browser alike: the code of its lazy routes loaded in place, so
 * the router starts on the page rather than on a fallback; the reads its components make besides
 * the loaders in the query cache (the footer's config, Home's advertised products, a search's first
 * page of results); and its routes' loaders run. Returns their answers, with which the router starts
 * without running them again. `location` is the page's path with its query string.
 */
export async function loadServerRenderedPage(location: string): Promise<HydrationState> {
  const url = new URL(location, 'http://localhost');
  const matches = matchRoutes(routes, url.pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy === 'function') Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
  const pattern = matchWebRoute(url.pathname)?.pattern;
  const isHome = pattern === webRoutes.home || pattern === webRoutes.homeAlias;
  await Promise.all([
    queryClient.prefetchQuery(appConfigQuery()),
    ...(isHome ? [queryClient.prefetchQuery(advertisedProductsQuery())] : []),
    ...(pattern === webRoutes.search ? [queryClient.prefetchInfiniteQuery(searchProductsQuery(apiSearchOf(url.searchParams)))] : []),
  ]);
  // The same on the server as in the browser: these loaders read only the path's params.
  const request = new Request(url);
  const loaderData = await Promise.all(
    matches.map(async ({ route, params }) => {
      const { id, loader } = route;
      // Every route with a loader on these pages has an id (router.tsx), under which the router looks for its answer.
      if (typeof loader !== 'function' || !id) return [];
      return [[id, await loader({ params, request, context: undefined } as LoaderFunctionArgs)] as const];
    }),
  );
  return { loaderData: Object.fromEntries(loaderData.flat()) };
}
