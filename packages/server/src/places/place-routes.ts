import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PLACE_SUGGESTIONS_LIMIT, place, placesCredit, placesQuery } from '@furniture/contract';
import { errorResponses } from '../http/responses.ts';
import { suggestPlaces, toPlace } from './place-repository.ts';

export const placeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/places',
    {
      // Places are loaded before the server starts and never change: an answer stays right.
      config: { access: 'public', cache: { tables: [] } },
      schema: {
        tags: ['places'],
        summary: 'Suggest towns for a typed place',
        description:
          `Public. Up to ${PLACE_SUGGESTIONS_LIMIT} towns whose name starts with \`q\`, best known (most people) first, then those spelt closest to it; accents and case are ignored. ` +
          `\`region\` is GeoNames' first-level division code and \`country\` the ISO 3166 code. ${placesCredit.text} (${placesCredit.licence}).`,
        querystring: placesQuery,
        response: { 200: z.object({ success: z.literal(true), data: z.array(place) }), 400: errorResponses[400] },
      },
    },
    async (request) => ({ success: true as const, data: (await suggestPlaces(app.db, request.query.q)).map(toPlace) }),
  );
};
