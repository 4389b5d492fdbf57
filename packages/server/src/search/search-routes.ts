import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf, FACET_COUNT_LIMIT, NEAR_DEFAULT_RADIUS_KM, NEAR_MAX_RADIUS_KM, goneProduct, idParams, productDetails, productPageTexts, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, searchQuery, searchResponse, serverMessages, withoutBlankParameters } from '@furniture/contract';
import { notFound } from '../http/errors.ts';
import { enforceLimit, RATE_LIMITS } from '../http/rate-limit.ts';
import { errorResponses } from '../http/responses.ts';
import { searchCatalogue } from './search.ts';
import { distanceKm } from './distance.ts';
import { facetCountCache, searchPlacesCache, searchWordsCache } from './search-caches.ts';
import { findGoneProduct, findProductDetails } from '../products/product-details.ts';
import { contactWithheldDescription, toProduct } from '../products/product-repository.ts';
import { countsAView } from '../products/product-views.ts';

const searchDescription = [
  contactWithheldDescription,
  'Public. Words in `q` are matched against name, description, category and location with stemming; accents are ignored and a misspelt word is replaced by the catalogue word it most likely stands for (fewest edits, a swap of two letters counting as one, then the commonest).',
  'Filters: `categoryId`, `condition` (repeatable), `minPrice`/`maxPrice` (resale price), `location` (loose match), `sellerVerified=true`, `inStock` (default true: available only; false includes sold pieces).',
  '“Will it fit?”: `spaceWidth`/`spaceDepth`/`spaceHeight` keep pieces that stand in that space (turned about the vertical if need be); `doorWidth` with `doorHeight` keep pieces that can be carried through that opening, tilted if need be. Pieces without measurements are left out by either.',
  `Near a point: \`near=lat,lon\` (degrees) or \`nearPlace\` (a town's id from GET /api/places, or its name) keeps the pieces within \`radiusKm\` (default ${NEAR_DEFAULT_RADIUS_KM}, at most ${NEAR_MAX_RADIUS_KM}) of it, by great-circle distance from each piece's town (rounded to about 1 km); each result then carries \`distanceKm\`. \`bbox=minLon,minLat,maxLon,maxLat\` keeps the pieces in that area (a map's). Pieces whose location names no known town have no point and are left out by either.`,
  '`sort`: relevance (the default with q: pieces named by every word first, the newest of them best named first (the words close together, in a short name), then the other matches, newest first), newest (the default without), price-asc, price-desc, distance (nearest first; needs near or nearPlace).',
  `\`limit\` (default ${SEARCH_DEFAULT_LIMIT}, at most ${SEARCH_MAX_LIMIT}) and \`cursor\` (the nextCursor of the previous page): keyset pages, stable while listings are added.`,
  `\`facets\` (first page only) count results by condition and by category, each ignoring its own filter; exact up to ${FACET_COUNT_LIMIT} matches, lower bounds beyond (exact: false); one word without other filters is counted exactly at any number of matches; a search whose every word is common (tens of thousands of listings) is estimated from a fixed sample of about 1 in 85 listings (estimated: true, two significant digits, 0 for a value with too few matches to estimate), unless its matches are few enough to count (in a town, say).`,
  'Blank parameters count as absent. A bad parameter answers 400 naming it.',
].join(' ');

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  const cachedFacetGroups = facetCountCache(app.dataVersions);
  const cachedWords = searchWordsCache(app.dataVersions);
  const cachedPlaces = searchPlacesCache(app.dataVersions);
  app.get(
    '/products',
    {
      config: { access: 'public', cache: { tables: ['categories', 'products', 'users', 'search_terms', 'reviews'] } },
      // A form that submits empty fields searches as if they were not there.
      preValidation: async (request) => {
        request.query = withoutBlankParameters(request.query as Record<string, unknown>) as typeof request.query;
      },
      schema: {
        tags: ['products'],
        summary: 'Search and filter the catalogue',
        description: searchDescription,
        querystring: searchQuery,
        response: { 200: searchResponse, 400: errorResponses[400] },
      },
    },
    async (request) => {
      await enforceLimit(app.db, { limit: RATE_LIMITS.searchesPerAddress, subject: request.ip });
      const caches = { facetGroupsOf: cachedFacetGroups(request), wordsOf: cachedWords(request), placesOf: cachedPlaces(request) };
      const result = await searchCatalogue(app.db, request.query, caches, { facetSampleFrom: app.config.facetSampleFrom });
      const { point } = result;
      const data = result.rows.map((row) => ({
        ...toProduct(row),
        ...(point && row.lat !== null && row.lon !== null ? { distanceKm: distanceKm(point, row.lat, row.lon) } : {}),
      }));
      return { success: true as const, data, nextCursor: result.nextCursor, facets: result.facets };
    },
  );

  app.get(
    '/products/:id',
    {
      config: {
        access: 'public',
        cache: {
          tables: ['categories', 'products', 'users', 'reviews'],
          // Counted as it is answered, computed or cached.
          onAnswer: countsAView(app),
        },
      },
      schema: {
        tags: ['products'],
        summary: 'One product with its photos, measurements, seller and similar pieces',
        description:
          'Public. `seller` is the public profile (no e-mail); `similar` holds up to 6 available pieces of the same category, closest in price. Sold pieces are shown too (inStock: sold). ' +
          'Each GET counts as a view of the piece, which its seller sees in My Products, except from a client that names itself a bot, crawler or spider. ' +
          'A listing that is no longer public (hidden or removed by an admin, withdrawn, expired) answers 410 with its name and similar pieces; an id no listing ever had, 404. ' +
          contactWithheldDescription,
        params: idParams,
        response: { 200: dataOf(productDetails), 400: errorResponses[400], 404: errorResponses[404], 410: goneProduct },
      },
    },
    async (request, reply) => {
      const details = await findProductDetails(app.db, request.params.id);
      if (details) return { success: true as const, data: details };
      const gone = await findGoneProduct(app.db, request.params.id);
      if (!gone) throw notFound(serverMessages.products.notFound);
      return reply.status(410).send({ success: false as const, message: productPageTexts.gone, data: gone });
    },
  );
};
