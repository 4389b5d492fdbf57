import { apiSearchOf, conditions, locationTexts, roundedEstimate, searchSorts, searchTexts, type Condition, type SearchSort } from '@furniture/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LocationControl } from '../../components/location-control.tsx';
import { Spinner } from '../../components/spinner.tsx';
import { paths } from '../../config/paths.ts';
import { ProductGrid } from '../../features/products/components/product-grid.tsx';
import { hasFilters, selectedConditions, sortOf } from '../../features/search/api/search-params.ts';
import { searchProductsQuery } from '../../features/search/api/search-products.ts';
import { SearchFilters } from '../../features/search/components/search-filters.tsx';
import { errorMessage } from '../../lib/notify.ts';
import { categoriesQuery } from '../../lib/categories.ts';
import { withLocation } from '../../lib/places.ts';
import { renderProductActions } from './product-actions.tsx';

// Leaflet comes with the map, when the map is opened.
const ResultsMap = lazy(() => import('../../features/search/components/results-map.tsx'));

/** The point of the URL's near (lat,lon), for the map's first view. */
function nearOf(params: URLSearchParams): { lat: number; lon: number } | null {
  const [lat, lon] = (params.get('near') ?? '').split(',').map(Number);
  return Number.isFinite(lat) && Number.isFinite(lon) && params.has('near') ? { lat: lat!, lon: lon! } : null;
}

/** /search: results for the words and filters in the URL, with filters, sort and Load more. */
export function SearchRoute() {
  const [params, setParams] = useSearchParams();
  const search = apiSearchOf(params);
  const q = params.get('q') ?? '';
  const place = params.get('location')?.trim();
  const sort = sortOf(params);
  const { data: categories = [] } = useQuery(categoriesQuery());
  const results = useInfiniteQuery(searchProductsQuery(search));
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [view, setView] = useState<'list' | 'map'>('list');
  const closeButton = useRef<HTMLButtonElement>(null);
  const openButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!filtersOpen) return;
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setFiltersOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [filtersOpen]);

  function closeFilters() {
    setFiltersOpen(false);
    openButton.current?.focus();
  }

  function update(next: URLSearchParams) {
    setParams(new URLSearchParams(apiSearchOf(next)));
  }

  function applyFilters(filters: URLSearchParams) {
    if (q) filters.set('q', q);
    if (params.get('sort')) filters.set('sort', params.get('sort')!);
    update(filters);
    setFiltersOpen(false);
  }

  /** The map was moved: search its area instead of a circle around a point. */
  function searchArea(bbox: string) {
    const next = withLocation(params, null);
    next.set('bbox', bbox);
    setParams(new URLSearchParams(apiSearchOf(next)), { replace: true });
  }

  function changeSort(next: SearchSort) {
    const updated = new URLSearchParams(params);
    updated.set('sort', next);
    update(updated);
  }

  const products = results.data?.pages.flatMap((page) => page.data) ?? [];
  const facets = results.data?.pages[0]?.facets;
  const chosen = selectedConditions(params);
  // The condition counts ignore only the condition filter: over the chosen conditions they add up to the results.
  const counted: readonly Condition[] = chosen.length ? chosen : conditions;
  const total = facets ? counted.reduce((sum, condition) => sum + (facets.condition[condition] ?? 0), 0) : null;
  const clearHref = paths.search.getHref(q ? { q } : {});

  return (
    <section aria-labelledby="search-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 id="search-title" className="text-3xl font-bold">
            {q ? searchTexts.resultsFor(q) : place ? searchTexts.furnitureIn(place) : searchTexts.allFurniture}
          </h1>
          {/* Its line is there from the start, so the results do not move down when the count arrives. */}
          <p className="mt-1 min-h-6" data-testid="result-count" aria-live="polite">
            {total !== null &&
              (facets?.estimated
                ? searchTexts.resultEstimate(roundedEstimate(total).toLocaleString('en-US'))
                : searchTexts.resultCount(total, facets?.exact === false))}
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <LocationControl />
          <div className="join" role="group" aria-label={locationTexts.view}>
            {(['list', 'map'] as const).map((option) => (
              <button
                key={option}
                type="button"
                className={`btn btn-sm join-item ${view === option ? 'btn-active btn-neutral' : 'btn-outline'}`}
                aria-pressed={view === option}
                onClick={() => setView(option)}
              >
                {locationTexts[option]}
              </button>
            ))}
          </div>
          <button
            ref={openButton}
            type="button"
            className="btn btn-outline btn-sm lg:hidden"
            aria-expanded={filtersOpen}
            aria-controls="search-filters"
            onClick={() => setFiltersOpen(true)}
          >
            {searchTexts.showFilters}
          </button>
          <label className="form-control">
            <span className="label-text text-sm">{searchTexts.sortLabel}</span>
            <select
              className="select select-sm select-bordered"
              value={sort}
              onChange={(event) => changeSort(event.target.value as SearchSort)}
            >
              {searchSorts
                .filter((option) => (option !== 'relevance' || q) && (option !== 'distance' || params.has('near') || params.has('nearPlace')))
                .map((option) => (
                  <option key={option} value={option}>
                    {searchTexts.sortNames[option]}
                  </option>
                ))}
            </select>
          </label>
        </div>
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[18rem_1fr]">
        <aside
          id="search-filters"
          aria-label={searchTexts.filters}
          {...(filtersOpen ? { role: 'dialog', 'aria-modal': true } : {})}
          className={filtersOpen ? 'fixed inset-0 z-40 overflow-y-auto bg-base-100 p-4' : 'hidden lg:block'}
        >
          <div className="mb-3 flex items-center justify-between">
            <h2 className="text-xl font-bold">{searchTexts.filters}</h2>
            {filtersOpen && (
              <button ref={closeButton} type="button" className="btn btn-ghost btn-sm" onClick={closeFilters}>
                {searchTexts.closeFilters}
              </button>
            )}
          </div>
          {/* Keyed by the URL, so Back and Forward show the filters of the search they return to. */}
          <SearchFilters key={search} params={params} categories={categories} facets={facets} onApply={applyFilters} />
        </aside>

        {/* Busy from the moment a filter, sort or search changes until its results are in (the spinner shows it). */}
        <div className="min-w-0" data-testid="search-results" aria-busy={results.isFetching && !results.isFetchingNextPage}>
          {/* The cards' headings come under this one, also where the filters' heading is hidden. */}
          <h2 className="sr-only">{searchTexts.resultsTitle}</h2>
          {view === 'map' && (
            <Suspense fallback={<Spinner label={locationTexts.mapLoading} />}>
              <ResultsMap products={products} bbox={params.get('bbox')} near={nearOf(params)} onArea={searchArea} />
            </Suspense>
          )}
          {results.isPending ? (
            <Spinner label={searchTexts.searching} />
          ) : results.isError ? (
            <div role="alert" className="alert alert-error flex flex-col items-start">
              <p>{errorMessage(results.error)}</p>
              <Link to={clearHref} className="btn btn-sm">
                {searchTexts.clearFilters}
              </Link>
            </div>
          ) : products.length === 0 ? (
            <div className="flex flex-col items-start gap-3 py-6">
              <p className="text-lg font-semibold">{searchTexts.noResults}</p>
              <p>{searchTexts.noResultsHint}</p>
              {hasFilters(params) && (
                <Link to={clearHref} className="btn btn-outline btn-primary btn-sm">
                  {searchTexts.clearFilters}
                </Link>
              )}
            </div>
          ) : view === 'map' ? null : (
            <>
              <ProductGrid products={products} renderActions={renderProductActions} compact />
              {results.hasNextPage && (
                <div className="mt-6 flex justify-center">
                  <button
                    type="button"
                    className="btn btn-outline btn-primary"
                    disabled={results.isFetchingNextPage}
                    onClick={() => void results.fetchNextPage()}
                  >
                    {results.isFetchingNextPage && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
                    {searchTexts.loadMore}
                  </button>
                </div>
              )}
            </>
          )}
        </div>
      </div>
    </section>
  );
}
