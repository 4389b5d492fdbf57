import { serverMessages } from '@furniture/contract';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { defineRecurringTask } from '../jobs/job-queue.ts';
import { createDiskImageStore } from './disk-image-store.ts';
import { DEFAULT_SWEEP, sweepOrphanImages } from './image-repository.ts';
import { IMMUTABLE_CACHE_CONTROL, UPLOADS_PREFIX, type ImageStore } from './image-store.ts';
import { createImageWorkGate, type ImageWorkGate } from './image-work.ts';

declare module 'fastify' {
  interface FastifyInstance {
    imageStore: ImageStore;
    /** Image work of this server: a few uploads read and decoded at once (image-work.ts). */
    imageWork: ImageWorkGate;
  }
}

/** Every quarter of an hour, on one app server, orphaned images are removed. */
export const sweepOrphanImagesTask = defineRecurringTask('images.sweep-orphans', { schedule: '*/15 * * * *' });

/**
 * S3-compatible object storage when S3_BUCKET is set (several app servers), else DATA_DIR/uploads,
 * each image also copied to `backupDir` as it is stored. The S3 SDK is loaded only then: it is a
 * large share of an idle server's memory.
 */
export async function createImageStore(config: Config, backupDir?: string): Promise<ImageStore> {
  if (!config.s3) return createDiskImageStore(config.dataDir, config.publicUrl, { backupDir });
  const { createS3ImageStore } = await import('./s3-image-store.ts');
  return createS3ImageStore(config.s3);
}

/**
 * The image service: the store (backing each image up to `backupDir` as it is stored), serving of
 * disk-stored images at /uploads/..., and the recurring sweep of orphaned images (a job on the
 * queue). The routes that take uploads parse them (`takeImageUploads`).
 */
export async function registerImages(app: FastifyInstance, options: { store?: ImageStore; backupDir?: string } = {}) {
  const store = options.store ?? (await createImageStore(app.config, options.backupDir));
  app.decorate('imageStore', store);
  app.decorate('imageWork', createImageWorkGate());

  if (store.kind === 'disk') await serveUploads(app, path.join(app.config.dataDir, UPLOADS_PREFIX));

  app.jobs.handle(sweepOrphanImagesTask, async (_tick, job) => {
    const keys = await sweepOrphanImages(app.db, store, DEFAULT_SWEEP);
    if (keys.length > 0) job.log.info({ count: keys.length }, 'removed orphaned images');
  });
}

/**
 * GET /uploads/<key>: stored images with year-long immutable caching (a key is never reused).
 * A missing image is a plain 404, never the web app's page.
 */
async function serveUploads(app: FastifyInstance, directory: string) {
  fs.mkdirSync(directory, { recursive: true });
  await app.register(
    async (uploads) => {
      uploads.setNotFoundHandler((request, reply) =>
        reply.status(404).header('cache-control', 'no-store').send({ success: false, message: serverMessages.images.missing }),
      );
      await uploads.register(fastifyStatic, {
        root: directory,
        prefix: '/',
        decorateReply: false,
        index: false,
        dotfiles: 'deny',
        cacheControl: false,
        setHeaders: (reply) => {
          reply.header('cache-control', IMMUTABLE_CACHE_CONTROL);
          // Usable from any page, as an image host's URLs are.
          reply.header('cross-origin-resource-policy', 'cross-origin');
        },
        allowedPath: (pathName) => /^\/[A-Za-z0-9-]+(\.thumb)?\.webp$/.test(pathName),
      });
    },
    { prefix: `/${UPLOADS_PREFIX}` },
  );
}
