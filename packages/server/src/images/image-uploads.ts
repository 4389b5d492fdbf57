import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { IMAGE_MAX_BYTES, serverMessages, type UploadedImage } from '@furniture/contract';
import { refuseControlCharacters } from '../http/control-characters.ts';
import { HttpError, badRequest } from '../http/errors.ts';
import { enforceLimit, uncountEvents, type LimitedBy } from '../http/rate-limit.ts';
import { processImage } from './image-pipeline.ts';
import { deleteImages, recordImage } from './image-repository.ts';
import { newImageKey, thumbnailKeyOf } from './image-store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Keys of the images this request stored; removed again if the request fails. */
    storedImageKeys: string[] | null;
    /** The rate limits this request's uploads counted against; taken back again if the request fails. */
    countedUploads: LimitedBy[] | null;
  }
}

/** The field of a multipart form that carries the image file, as the specification's image host. */
export const IMAGE_FIELD = 'image';

export const MULTIPART_LIMITS = {
  fileSize: IMAGE_MAX_BYTES,
  files: 1,
  fields: 30,
  fieldSize: 64 * 1024,
  parts: 31,
} as const;

/**
 * Multipart forms for the routes of `scope` (an encapsulated plugin holding the routes that take
 * an image), and the undoing of a refused request's uploads. Only those routes pay for them: the
 * multipart parser's hooks run for every request of the scope it is registered in.
 */
export async function takeImageUploads(scope: FastifyInstance) {
  await scope.register(multipart, { limits: MULTIPART_LIMITS });
  scope.decorateRequest('storedImageKeys', null);
  scope.decorateRequest('countedUploads', null);

  // A refused request leaves nothing behind: its uploads no longer count against the uploader's
  // limit (taken back before the answer leaves, so the caller's next request sees it), and its
  // images are removed.
  scope.addHook('onSend', async (request, reply, payload) => {
    if (request.countedUploads && reply.statusCode >= 400) {
      await uncountEvents(scope.db, request.countedUploads).catch((error: unknown) => {
        request.log.warn({ err: error }, 'could not take back the upload count of a failed request');
      });
    }
    return payload;
  });
  scope.addHook('onResponse', async (request, reply) => {
    const keys = request.storedImageKeys;
    if (!keys || reply.statusCode < 400) return;
    await deleteImages(scope.db, scope.imageStore, keys).catch((error: unknown) => {
      // The sweep removes it later all the same.
      request.log.warn({ err: error, keys }, 'could not remove the images of a failed request');
    });
  });
}

export interface ImageForm {
  fields: Record<string, string>;
  /** The bytes of the file in the image field; undefined when no file was chosen. */
  image?: Buffer;
}

const tooLarge = () =>
  new HttpError(413, serverMessages.images.tooLarge);

function multipartError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_FILES_LIMIT':
      return badRequest(serverMessages.images.sendOne(IMAGE_FIELD));
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return badRequest(serverMessages.images.tooManyFields);
    case 'FST_PROTO_VIOLATION':
    case 'FST_MP_PREMATURE_CLOSE':
      return badRequest(serverMessages.images.unreadableForm);
    default:
      // The parser's own errors ("Unexpected end of form", a malformed part header) carry no
      // status: the form is what is wrong.
      if (error instanceof HttpError || (error as { statusCode?: unknown } | null)?.statusCode !== undefined) return error;
      return badRequest(serverMessages.images.unreadableForm);
  }
}

/**
 * Reads a multipart form whole: its text fields, and the file of the image field. A file in any
 * other field, a second file or one over IMAGE_MAX_BYTES is refused with a message saying so.
 */
export async function readImageForm(request: FastifyRequest): Promise<ImageForm> {
  if (!request.isMultipart()) {
    throw badRequest(serverMessages.images.sendAsForm(IMAGE_FIELD));
  }
  // Without a boundary the parts cannot be told apart; the parser would throw a bare error.
  if (!/;\s*boundary=/i.test(request.headers['content-type'] ?? '')) {
    throw badRequest(serverMessages.images.noBoundary);
  }
  const form: ImageForm = { fields: {} };
  let refusal: HttpError | undefined;
  try {
    for await (const part of request.parts({ limits: MULTIPART_LIMITS })) {
      if (part.type === 'file') {
        // Every part is read to its end, so the request body is consumed before answering.
        const data = await part.toBuffer();
        if (part.fieldname !== IMAGE_FIELD) refusal ??= badRequest(serverMessages.images.sendInField(IMAGE_FIELD));
        // A browser sends an empty file part for a file input left empty.
        else if (data.length > 0) form.image = data;
      } else {
        if (part.valueTruncated) refusal ??= badRequest(serverMessages.products.fieldTooLong(part.fieldname));
        form.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    throw multipartError(error);
  }
  if (refusal) throw refusal;
  refuseControlCharacters([form.fields]);
  return form;
}

/**
 * Runs an upload through the image pipeline, stores the image and its thumbnail under new
 * server-generated keys and records it. The upload is first counted against the caller's rate
 * limit, so a refused one costs no image work. The request remembers the key and the count, so
 * if the request ends in an error the image is removed and the upload no longer counts
 * (`takeImageUploads`).
 */
export async function storeImage(
  app: FastifyInstance,
  request: FastifyRequest,
  data: Buffer,
  { uploaderId, limitedBy }: { uploaderId: string | null; limitedBy: LimitedBy },
): Promise<UploadedImage> {
  await enforceLimit(app.db, limitedBy);
  request.countedUploads = [...(request.countedUploads ?? []), limitedBy];
  const processed = await processImage(data);
  const key = newImageKey();
  const thumbnailKey = thumbnailKeyOf(key);
  request.storedImageKeys = [...(request.storedImageKeys ?? []), key];
  await app.imageStore.save(key, processed.full.data);
  await app.imageStore.save(thumbnailKey, processed.thumbnail.data);
  const url = app.imageStore.urlOf(key);
  await recordImage(app.db, {
    key,
    url,
    uploaderId,
    width: processed.full.width,
    height: processed.full.height,
    bytes: processed.full.data.length,
  });
  return { url, thumbnailUrl: app.imageStore.urlOf(thumbnailKey), width: processed.full.width, height: processed.full.height };
}

/**
 * A preValidation step for routes whose JSON body has an image URL field: a multipart request
 * becomes that same body, its text fields as they are and the file of the image field replaced
 * by the URL of the stored image. The route's schema then validates it exactly as JSON.
 * JSON requests pass through untouched. `limitedBy` names the rate limit a file counts against.
 */
export function multipartImageBody(
  app: FastifyInstance,
  { urlField = IMAGE_FIELD, limitedBy }: { urlField?: string; limitedBy: (request: FastifyRequest) => LimitedBy },
) {
  const hook: preValidationAsyncHookHandler = async (request) => {
    if (!request.isMultipart()) return;
    request.body = await app.imageWork.run(async () => {
      const { fields, image } = await readImageForm(request);
      const body: Record<string, string> = { ...fields };
      if (image) {
        body[urlField] = (await storeImage(app, request, image, { uploaderId: request.user?.id ?? null, limitedBy: limitedBy(request) })).url;
      }
      return body;
    });
  };
  return hook;
}
