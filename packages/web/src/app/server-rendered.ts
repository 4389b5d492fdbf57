import { apiSearchOf, matchWebRoute, webRoutes } from '@furniture/contract';
import { matchRoutes, type HydrationState, type LoaderFunctionArgs } from 'react-router';
import { appConfigQuery } from '../lib/app-config.ts';
import { queryClient } from '../lib/query-client.ts';
import { advertisedProductsQuery } from '../features/products/api/get-advertised-products.ts';
import { searchProductsQuery } from '../features/search/api/search-products.ts';
import { sellerPageQuery } from '../lib/seller-page.ts';
import { routes } from './router.tsx';

/**
 * Makes the app ready to render a page the server renders (decision 29), from the page's first
 * answers, on the server and in the browser alike: the code of its lazy routes loaded in place, so
 * the router starts on the page rather than on a fallback; the reads its components make besides
 * the loaders in the query cache (the footer's config, Home's advertised products, a search's first
 * page of results, a seller's profile); and its routes' loaders run, down to the first route guarded
 * for the signed-in (a category's page): that route's loader runs in the browser after its guard, the
 * router showing its HydrateFallback until then, on the server as in the browser. Returns the
 * loaders' answers, with which the router starts without running them again. `location` is the
 * page's path with its query string.
 */
export async function loadServerRenderedPage(location: string): Promise<HydrationState> {
  const url = new URL(location, 'http://localhost');
  const allMatches = matchRoutes(routes, url.pathname) ?? [];
  await Promise.all(
    allMatches.map(async ({ route }) => {
      if (typeof route.lazy === 'function') Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
  const pattern = matchWebRoute(url.pathname)?.pattern;
  const isHome = pattern === webRoutes.home || pattern === webRoutes.homeAlias;
  await Promise.all([
    queryClient.prefetchQuery(appConfigQuery()),
    ...(isHome ? [queryClient.prefetchQuery(advertisedProductsQuery())] : []),
    ...(pattern === webRoutes.search ? [queryClient.prefetchInfiniteQuery(searchProductsQuery(apiSearchOf(url.searchParams)))] : []),
    ...(pattern === webRoutes.seller ? [queryClient.prefetchQuery(sellerPageQuery(matchWebRoute(url.pathname)!.params.id!))] : []),
  ]);
  // The same on the server as in the browser: these loaders read only the path's params.
  const guarded = allMatches.findIndex(({ route }) => route.middleware?.length);
  const matches = guarded === -1 ? allMatches : allMatches.slice(0, guarded);
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
