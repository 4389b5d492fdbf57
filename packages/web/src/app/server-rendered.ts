import { matchWebRoute, webRoutes } from '@furniture/contract';
import { matchRoutes, type HydrationState, type LoaderFunctionArgs } from 'react-router';
import { appConfigQuery } from '../lib/app-config.ts';
import { queryClient } from '../lib/query-client.ts';
import { advertisedProductsQuery } from '../features/products/api/get-advertised-products.ts';
import { routes } from './router.tsx';

/**
 * Makes the app ready to render a page the server renders (decision 29), from the page's first
 * answers, on the server and in the browser alike: the code of its lazy routes loaded in place, so
 * the router starts on the page rather than on a fallback; the reads its components make besides
 * the loaders in the query cache (the footer's config, Home's advertised products); and its routes'
 * loaders run. Returns their answers, with which the router starts without running them again.
 */
export async function loadServerRenderedPage(pathname: string): Promise<HydrationState> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy === 'function') Object.assign(route, await route.lazy(), { lazy: undefined });
    }),
  );
  const pattern = matchWebRoute(pathname)?.pattern;
  const isHome = pattern === webRoutes.home || pattern === webRoutes.homeAlias;
  await Promise.all([queryClient.prefetchQuery(appConfigQuery()), ...(isHome ? [queryClient.prefetchQuery(advertisedProductsQuery())] : [])]);
  // The same on the server as in the browser: these loaders read only the path's params.
  const request = new Request(new URL(pathname, 'http://localhost'));
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
