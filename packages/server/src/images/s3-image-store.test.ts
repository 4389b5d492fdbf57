import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, setupTestApp } from '../../test/app.ts';
import { multipartPayload, pngImage } from '../../test/images.ts';
import { createUser } from '../demo/factories.ts';
import { sweepOrphanImages } from './image-repository.ts';

/**
 * An S3-compatible endpoint on a localhost port holding objects in memory: enough of the S3 API
 * (PutObject, GetObject, DeleteObject in path style) to check what the store sends.
 */
interface StoredObject {
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}
const objects = new Map<string, StoredObject>();
const requests: Array<{ method: string; path: string; authorization: string | undefined }> = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const objectPath = new URL(req.url!, 'http://s3.local').pathname;
    requests.push({ method: req.method!, path: objectPath, authorization: req.headers.authorization });
    if (req.method === 'PUT') {
      objects.set(objectPath, { body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200, { etag: '"stored"' }).end();
    } else if (req.method === 'DELETE') {
      objects.delete(objectPath);
      res.writeHead(204).end();
    } else if (req.method === 'GET' && objects.has(objectPath)) {
      const object = objects.get(objectPath)!;
      res
        .writeHead(200, { 'content-type': object.headers['content-type']!, 'cache-control': object.headers['cache-control']! })
        .end(object.body);
    } else {
      res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
    }
  });
});
const endpoint = await new Promise<string>((resolve) =>
  server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
);
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const t = setupTestApp({
  s3: {
    bucket: 'furniture-images',
    region: 'eu-central-1',
    endpoint,
    accessKeyId: 'TESTACCESSKEY',
    secretAccessKey: 'test-secret-key',
    publicUrl: undefined,
  },
});

let uploaded: { url: string; thumbnailUrl: string };
beforeAll(async () => {
  const user = await createUser(t.db);
  const { payload, headers } = await multipartPayload({}, [{ data: await pngImage(2000, 1000), filename: 'lamp.png', type: 'image/png' }]);
  const response = await t.app.inject({ method: 'POST', url: '/api/images', payload, headers: { ...headers, ...(await bearer(t.app, user.id)) } });
  expect(response.statusCode).toBe(201);
  uploaded = response.json().data;
});

describe('the S3-compatible image store', () => {
  it('puts the image and its thumbnail in the bucket, signed, typed and cacheable, and answers their public URLs', async () => {
    expect(uploaded.url).toMatch(new RegExp(`^${endpoint}/furniture-images/uploads/[0-9a-f-]{36}\\.webp$`));
    expect(uploaded.thumbnailUrl).toBe(uploaded.url.replace(/\.webp$/, '.thumb.webp'));
    const puts = requests.filter((request) => request.method === 'PUT');
    expect(puts).toHaveLength(2);
    for (const put of puts) {
      expect(put.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=TESTACCESSKEY\/\d{8}\/eu-central-1\/s3\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/);
      const object = objects.get(put.path)!;
      expect(object.headers['content-type']).toBe('image/webp');
      expect(object.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    const served = await fetch(uploaded.url);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const metadata = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['webp', 1600, 800]);
    const thumbnail = await sharp(objects.get(new URL(uploaded.thumbnailUrl).pathname)!.body).metadata();
    expect([thumbnail.width, thumbnail.height]).toEqual([400, 200]);
  });

  it('is not served by the app itself', async () => {
    const response = await t.app.inject({ method: 'GET', url: new URL(uploaded.url).pathname.replace('/furniture-images', '') });
    expect(response.headers['content-type']).not.toBe('image/webp');
  });

  it('deletes orphaned images from the bucket', async () => {
    await t.db.execute(`update images set created_at = now() - interval '2 hours'`);
    const removed = await sweepOrphanImages(t.db, t.app.imageStore, { graceSeconds: 3600, batchSize: 10 });
    expect(removed).toHaveLength(1);
    expect(objects.has(new URL(uploaded.url).pathname)).toBe(false);
    expect(objects.has(new URL(uploaded.thumbnailUrl).pathname)).toBe(false);
    expect(requests.filter((request) => request.method === 'DELETE')).toHaveLength(2);
  });
});
