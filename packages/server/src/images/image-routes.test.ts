import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { messages } from '@furniture/contract';
import { bearer, setupTestApp } from '../../test/app.ts';
import { avifImage, jpegImage, multipartPayload, noiseImage, pngImage, solidImage, webpImage } from '../../test/images.ts';
import { createUser } from '../demo/factories.ts';
import { images } from '../db/schema/index.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'furniture-images-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const t = setupTestApp({ dataDir, publicUrl: 'http://localhost:5000' });

async function upload(file: { data: Buffer; filename?: string; type?: string; field?: string } | undefined, userId?: string) {
  const { payload, headers } = await multipartPayload({}, file ? [file] : []);
  const auth = userId ? await bearer(t.app, userId) : {};
  return t.app.inject({ method: 'POST', url: '/api/images', payload, headers: { ...headers, ...auth } });
}

const pathOf = (url: string) => new URL(url).pathname;
const fileOf = (url: string) => path.join(dataDir, pathOf(url));

describe('POST /api/images', () => {
  it('answers 401 to an anonymous upload and stores nothing', async () => {
    const before = await t.db.select().from(images);
    const response = await upload({ data: await jpegImage() });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: 'Sign in to continue' });
    expect(await t.db.select().from(images)).toHaveLength(before.length);
  });

  it.each([
    ['JPEG', jpegImage, 'image/jpeg', 'sofa.jpg'],
    ['PNG', pngImage, 'image/png', 'sofa.png'],
    ['WebP', webpImage, 'image/webp', 'sofa.webp'],
    ['AVIF', avifImage, 'image/avif', 'sofa.avif'],
  ] as const)('accepts a %s and answers the image host’s shape with absolute URLs', async (_name, make, type, filename) => {
    const user = await createUser(t.db);
    const response = await upload({ data: await make(2400, 1800), type, filename }, user.id);
    expect(response.statusCode).toBe(201);
    const { success, data } = response.json();
    expect(success).toBe(true);
    expect(data.url).toMatch(/^http:\/\/localhost:5000\/uploads\/[0-9a-f-]{36}\.webp$/);
    expect(data.thumbnailUrl).toBe(data.url.replace(/\.webp$/, '.thumb.webp'));
    expect(data.url).not.toContain(filename.split('.')[0]);
    expect([data.width, data.height]).toEqual([1600, 1200]);

    const full = await sharp(fs.readFileSync(fileOf(data.url))).metadata();
    expect([full.format, full.width, full.height]).toEqual(['webp', 1600, 1200]);
    const thumbnail = await sharp(fs.readFileSync(fileOf(data.thumbnailUrl))).metadata();
    expect([thumbnail.format, thumbnail.width, thumbnail.height]).toEqual(['webp', 400, 300]);

    const [row] = await t.db.select().from(images).where(eq(images.url, data.url));
    expect(row).toMatchObject({ uploaderId: user.id, width: 1600, height: 1200, key: pathOf(data.url).slice(1) });
    expect(row!.bytes).toBe(fs.statSync(fileOf(data.url)).size);
  });

  it('accepts a file of several megabytes, above the JSON body limit', async () => {
    const user = await createUser(t.db);
    const photo = await noiseImage(1000, 1000, 60).png({ compressionLevel: 0 }).toBuffer();
    expect(photo.length).toBeGreaterThan(2 * 1024 * 1024);
    const response = await upload({ data: photo, filename: 'big.png', type: 'image/png' }, user.id);
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({ width: 1000, height: 1000 });
  });

  it('serves the stored image and thumbnail with long-lived immutable caching', async () => {
    const user = await createUser(t.db);
    const { data } = (await upload({ data: await jpegImage() }, user.id)).json();
    for (const url of [data.url, data.thumbnailUrl]) {
      const served = await t.app.inject({ method: 'GET', url: pathOf(url) });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      // An image URL works wherever it is put, like the specification's image host.
      expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(served.rawPayload.equals(fs.readFileSync(fileOf(url)))).toBe(true);
    }
  });

  it('answers a plain 404 for an image that does not exist, or a path outside the images', async () => {
    const missing = ['/uploads/00000000-0000-0000-0000-000000000000.webp', '/uploads/00000000.thumb.webp'];
    for (const url of [...missing, '/uploads/%2e%2e%2fpackage.json', '/uploads/..%2F..%2Fpackage.json', '/uploads/x.html']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['cache-control']).not.toContain('immutable');
    }
  });

  it('refuses a file of another type even when its name and declared type say image', async () => {
    const user = await createUser(t.db);
    const gif = await solidImage(200, 100).gif().toBuffer();
    const response = await upload({ data: gif, filename: 'chair.jpg', type: 'image/jpeg' }, user.id);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('This file is not a JPEG, PNG, WebP or AVIF image. Choose an image in one of these formats.');

    const text = await upload({ data: Buffer.from('<html>hello</html>'), filename: 'table.png', type: 'image/png' }, user.id);
    expect(text.statusCode).toBe(400);
  });

  it('refuses a truncated file', async () => {
    const user = await createUser(t.db);
    const noise = noiseImage(640, 480, 40);
    const jpeg = await noise.jpeg().toBuffer();
    const response = await upload({ data: jpeg.subarray(0, jpeg.length / 2), filename: 'bed.jpg', type: 'image/jpeg' }, user.id);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/damaged or incomplete/);
  });

  it('refuses a file over 5 MB with 413', async () => {
    const user = await createUser(t.db);
    const noise = await noiseImage(1500, 1300, 60)
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noise.length).toBeGreaterThan(5 * 1024 * 1024);
    const before = await t.db.select().from(images);
    const response = await upload({ data: noise, filename: 'wardrobe.png', type: 'image/png' }, user.id);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ success: false, message: 'This image is larger than 5 MB. Choose a smaller file.' });
    expect(await t.db.select().from(images)).toHaveLength(before.length);
  });

  it('refuses an image over 40 megapixels with 413', async () => {
    const user = await createUser(t.db);
    const huge = await solidImage(8000, 6000).png({ compressionLevel: 9 }).toBuffer();
    const response = await upload({ data: huge, filename: 'panorama.png', type: 'image/png' }, user.id);
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toMatch(/48 megapixels; the most accepted is 40 megapixels/);
  });

  it('needs a file in the image field', async () => {
    const user = await createUser(t.db);
    const missing = await upload(undefined, user.id);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Choose an image file to upload, in the field "image".');

    const otherField = await upload({ field: 'photo', data: await jpegImage() }, user.id);
    expect(otherField.statusCode).toBe(400);
    expect(otherField.json().message).toBe('Send the image in the field "image".');

    const json = await t.app.inject({ method: 'POST', url: '/api/images', payload: { image: 'x' }, headers: await bearer(t.app, user.id) });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toMatch(/multipart\/form-data/);
  });
});

describe('a form with a file sent where no image is taken', () => {
  it('is refused as a type the call does not take, and nothing is stored', async () => {
    const seller = await createUser(t.db, { role: 'seller' });
    const before = await t.db.select().from(images);
    const { payload, headers } = await multipartPayload({ name: 'Oak table' }, [{ data: await jpegImage(), filename: 'table.jpg', type: 'image/jpeg' }]);
    const response = await t.app.inject({ method: 'POST', url: '/api/addProduct', payload, headers: { ...headers, ...(await bearer(t.app, seller.id)) } });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ success: false, message: expect.stringMatching(/^Unsupported Media Type/) });
    expect(await t.db.select().from(images)).toHaveLength(before.length);
  });
});

describe('POST /api/auth/signup with the photo as a file', () => {
  const fields = (overrides: Record<string, string> = {}) => ({
    name: 'Karim',
    email: `karim-${Math.random().toString(36).slice(2)}@example.com`,
    password: 'Secret123',
    userRole: 'buyer',
    ...overrides,
  });
  const signup = async (form: Record<string, string>, file?: Buffer) => {
    const { payload, headers } = await multipartPayload(form, file ? [{ data: file, filename: 'me.jpg', type: 'image/jpeg' }] : []);
    return t.app.inject({ method: 'POST', url: '/api/auth/signup', payload, headers });
  };

  it('stores the photo through the image pipeline and signs the new account in', async () => {
    const response = await signup(fields({ email: 'Photo.Signup@example.com' }), await jpegImage(3000, 2000));
    expect(response.statusCode).toBe(201);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `bearer ${response.json().token}` } });
    const { image } = me.json().data;
    expect(me.json().data).toMatchObject({ email: 'photo.signup@example.com', userRole: 'buyer' });
    expect(image).toMatch(/^http:\/\/localhost:5000\/uploads\/[0-9a-f-]{36}\.webp$/);
    const stored = await sharp(fs.readFileSync(fileOf(image))).metadata();
    expect([stored.width, stored.height]).toEqual([1600, 1067]);
    const [row] = await t.db.select().from(images).where(eq(images.url, image));
    expect(row).toBeDefined();
  });

  it('validates the form’s fields exactly as JSON, and removes the photo of a refused sign-up', async () => {
    const before = (await t.db.select().from(images)).length;
    const weak = await signup(fields({ password: 'secret123' }), await jpegImage());
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors.map((e: { message: string }) => e.message)).toContain(messages.passwordTooWeak);
    await vi.waitFor(async () => expect(await t.db.select().from(images)).toHaveLength(before));
    expect(fs.readdirSync(path.join(dataDir, 'uploads')).filter((name) => name.endsWith('.partial'))).toEqual([]);

    const noPhoto = await signup(fields());
    expect(noPhoto.statusCode).toBe(400);
    expect(noPhoto.json().errors.map((e: { message: string }) => e.message)).toContain(messages.photoRequired);
  });

  it('removes the stored files too when the sign-up fails after the photo was stored', async () => {
    const taken = await createUser(t.db, { email: 'taken-photo@example.com' });
    const filesBefore = fs.readdirSync(path.join(dataDir, 'uploads')).length;
    const response = await signup(fields({ email: taken.email }), await pngImage());
    expect(response.statusCode).toBe(409);
    await vi.waitFor(() => expect(fs.readdirSync(path.join(dataDir, 'uploads'))).toHaveLength(filesBefore));
  });

  it('refuses a photo that is not an image, with the pipeline’s message', async () => {
    const response = await signup(fields(), Buffer.from('%PDF-1.7 not a photo'));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/not a JPEG, PNG, WebP or AVIF image/);
  });

  it('still takes an image URL in a multipart form, and JSON as before', async () => {
    const form = await signup(fields({ image: 'https://images.example.com/karim.webp' }));
    expect(form.statusCode).toBe(201);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { ...fields(), image: 'https://images.example.com/karim.webp' },
    });
    expect(json.statusCode).toBe(201);
  });
});
