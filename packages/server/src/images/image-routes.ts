import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf, errorResponse, uploadedImage } from '@furniture/contract';
import { currentUser } from '../http/access.ts';
import { badRequest } from '../http/errors.ts';
import { IMAGE_FIELD, readImageForm, storeImage } from './image-uploads.ts';

const errors = { 400: errorResponse, 401: errorResponse, 413: errorResponse };

export const imageRoutes: FastifyPluginAsyncZod = async (app) => {
  // The specification's image host: multipart form data with an image field, answering data.url.
  // The form is read in the handler, after the access check, so nothing is processed for a caller
  // who may not upload.
  app.post(
    '/images',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['images'],
        summary: 'Upload an image (multipart field "image"; JPEG, PNG, WebP or AVIF up to 5 MB)',
        description:
          'Re-encoded to WebP of at most 1600 px on the long side, without metadata, plus a 400 px thumbnail.',
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        response: { 201: dataOf(uploadedImage), ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { image } = await readImageForm(request);
      if (!image) throw badRequest(`Choose an image file to upload, in the field "${IMAGE_FIELD}".`);
      const stored = await storeImage(app, request, image, user.id);
      return reply.status(201).send({ success: true as const, data: stored });
    },
  );
};
