import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PLACE_SUGGESTIONS_LIMIT, place, placesCredit, placesQuery } from '@furniture/contract';
import { errorResponses } from '../http/responses.ts';
import { askGeocoder, mergeSuggestions } from './geocoder.ts';
import { suggestPlaces, toPlace } from './place-repository.ts';

export const placeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/places',
    {
      // Places are loaded before the server starts and never change: an answer stays right (one
      // made without the geocoder it should have asked is not kept).
      config: { access: 'public', cache: { tables: [] } },
      schema: {
        tags: ['places'],
        summary: 'Suggest towns for a typed place',
        description:
          `Public. Up to ${PLACE_SUGGESTIONS_LIMIT} towns whose name starts with \`q\`, best known (most people) first, then those spelt closest to it; accents and case are ignored. ` +
          `\`region\` is GeoNames' first-level division code and \`country\` the ISO 3166 code. ${placesCredit.text} (${placesCredit.licence}). ` +
          'With GEOCODER_URL set, the places a Nominatim-compatible service finds come first (ids starting with `geocoder:`, `regionName` set, points rounded to about 1 km); when it fails or is slow, the towns alone.',
        querystring: placesQuery,
        response: { 200: z.object({ success: z.literal(true), data: z.array(place) }), 400: errorResponses[400] },
      },
    },
    async (request) => {
      const { geocoderUrl } = app.config;
      const [towns, found] = await Promise.all([
        suggestPlaces(app.db, request.query.q),
        geocoderUrl
          ? askGeocoder(geocoderUrl, request.query.q).catch((error: unknown) => {
              request.log.warn({ err: error }, 'The geocoder did not answer; suggesting towns alone');
              request.cacheVersions = null;
              return [];
            })
          : [],
      ]);
      return { success: true as const, data: mergeSuggestions(found, towns.map(toPlace)) };
    },
  );
};
