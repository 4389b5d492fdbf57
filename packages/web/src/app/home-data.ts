import { appConfigQuery } from '../lib/app-config.ts';
import { categoriesQuery } from '../lib/categories.ts';
import { queryClient } from '../lib/query-client.ts';
import { advertisedProductsQuery } from '../features/products/api/get-advertised-products.ts';

/** Fills the query cache with Home's reads (from the page's first answers), before Home renders from it. */
export async function loadHomeData(): Promise<void> {
  await Promise.all([
    queryClient.prefetchQuery(categoriesQuery()),
    queryClient.prefetchQuery(advertisedProductsQuery()),
    queryClient.prefetchQuery(appConfigQuery()),
  ]);
}

/** The root loader's answer (the category list) from the cache, so the router starts on Home without running it. */
export const homeHydrationData = () => ({ loaderData: { root: queryClient.getQueryData(categoriesQuery().queryKey) ?? [] } });
