import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf, errorResponse, serverMessages, uploadedImage } from '@furniture/contract';
import { currentUser } from '../http/access.ts';
import { badRequest } from '../http/errors.ts';
import { RATE_LIMITS } from '../http/rate-limit.ts';
import { IMAGE_FIELD, readImageForm, storeImage, takeImageUploads } from './image-uploads.ts';
import { IMAGE_WORK } from './image-work.ts';

const uploadLimit = RATE_LIMITS.imageUploadsPerAccount;
const errors = { 400: errorResponse, 401: errorResponse, 413: errorResponse, 429: errorResponse };

export const imageRoutes: FastifyPluginAsyncZod = async (app) => {
  await takeImageUploads(app);
  // The specification's image host: multipart form data with an image field, answering data.url.
  // The form is read in the handler, after the access check, so nothing is processed for a caller
  // who may not upload; each image is then counted against its uploader's limit before processing.
  app.post(
    '/images',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['images'],
        summary: 'Upload an image (multipart field "image"; JPEG, PNG, WebP or AVIF up to 5 MB)',
        description:
          'Re-encoded to WebP of at most 1600 px on the long side, without metadata, plus a 400 px thumbnail. ' +
          `At most ${uploadLimit.max} uploads per account in ${uploadLimit.windowSeconds / 60} minutes; more answer 429 with Retry-After. ` +
          `Each server decodes ${IMAGE_WORK.concurrency} images at once; others wait up to ${IMAGE_WORK.waitMs / 1000} seconds, ${IMAGE_WORK.queue} at most, and the rest answer 429 with Retry-After.`,
        consumes: ['multipart/form-data'],
        response: { 201: dataOf(uploadedImage), ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const stored = await app.imageWork.run(async () => {
        const { image } = await readImageForm(request);
        if (!image) throw badRequest(serverMessages.images.chooseFile(IMAGE_FIELD));
        return storeImage(app, request, image, { uploaderId: user.id, limitedBy: { limit: uploadLimit, subject: user.id } });
      });
      return reply.status(201).send({ success: true as const, data: stored });
    },
  );
};
