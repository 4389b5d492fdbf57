import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { bearer, setupTestApp } from '../../test/app.ts';
import { multipartPayload, pngImage } from '../../test/images.ts';
import { createUser } from '../demo/factories.ts';
import { images } from '../db/schema/index.ts';
import { RATE_LIMITS } from '../http/rate-limit.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'furniture-upload-limits-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const t = setupTestApp({ dataDir });

const uploadLimit = RATE_LIMITS.imageUploadsPerAccount;
const signUpLimit = RATE_LIMITS.photoSignUpsPerAddress;

const tinyPng = () => pngImage(16, 12);
const notAnImage = Buffer.from('%PDF-1.7 not an image at all');

async function upload(userId: string, data: Buffer, app: App = t.app) {
  const { payload, headers } = await multipartPayload({}, [{ data, filename: 'chair.png', type: 'image/png' }]);
  return app.inject({ method: 'POST', url: '/api/images', payload, headers: { ...headers, ...(await bearer(app, userId)) } });
}

async function uploadMany(userId: string, count: number) {
  const data = await tinyPng();
  for (let i = 0; i < count; i++) expect((await upload(userId, data)).statusCode).toBe(201);
}

const storedFiles = () => fs.readdirSync(path.join(dataDir, 'uploads'));
const imagesOf = (userId: string) => t.db.select().from(images).where(eq(images.uploaderId, userId));

function expectRetryAfterWithin(response: { headers: Record<string, unknown> }, windowSeconds: number) {
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(windowSeconds - 60);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('upload limit of POST /api/images', () => {
  it('refuses the upload after the limit with 429, Retry-After and a message, storing nothing', async () => {
    const user = await createUser(t.db);
    await uploadMany(user.id, uploadLimit.max);
    const rowsBefore = (await imagesOf(user.id)).length;
    const filesBefore = storedFiles().length;
    expect(rowsBefore).toBe(uploadLimit.max);

    const refused = await upload(user.id, await tinyPng());
    expect(refused.statusCode).toBe(429);
    expectRetryAfterWithin(refused, uploadLimit.windowSeconds);
    expect(refused.json()).toEqual({ success: false, message: 'Too many uploads. Try again in 10 minutes.' });
    expect(await imagesOf(user.id)).toHaveLength(rowsBefore);
    expect(storedFiles()).toHaveLength(filesBefore);
  });

  it('refuses before the image pipeline looks at the file', async () => {
    const user = await createUser(t.db);
    // Under the limit the pipeline rejects this file; over it, the limit answers first.
    expect((await upload(user.id, notAnImage)).statusCode).toBe(400);
    await uploadMany(user.id, uploadLimit.max);
    expect((await upload(user.id, notAnImage)).statusCode).toBe(429);
  });

  it('does not count refused uploads: a file that is no image, or a form without a boundary', async () => {
    const user = await createUser(t.db);
    for (let i = 0; i < uploadLimit.max + 2; i++) expect((await upload(user.id, notAnImage)).statusCode).toBe(400);
    const noBoundary = await t.app.inject({
      method: 'POST',
      url: '/api/images',
      payload: 'not really a form',
      headers: { 'content-type': 'multipart/form-data', ...(await bearer(t.app, user.id)) },
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().message).toBe('The form data could not be read: its Content-Type names no boundary.');
    await uploadMany(user.id, uploadLimit.max);
  });

  it('limits each account on its own', async () => {
    const [busy, other] = await Promise.all([createUser(t.db), createUser(t.db)]);
    await uploadMany(busy.id, uploadLimit.max);
    expect((await upload(busy.id, await tinyPng())).statusCode).toBe(429);
    expect((await upload(other.id, await tinyPng())).statusCode).toBe(201);
  });

  it('lets the account upload again once the window has passed', async () => {
    const user = await createUser(t.db);
    await uploadMany(user.id, uploadLimit.max);
    expect((await upload(user.id, await tinyPng())).statusCode).toBe(429);
    await t.db.execute(
      sql`update login_throttle set window_started_at = now() - interval '11 minutes' where key = ${`image-uploads:${user.id}`}`,
    );
    expect((await upload(user.id, await tinyPng())).statusCode).toBe(201);
    // A new window has started, counting that upload.
    await uploadMany(user.id, uploadLimit.max - 1);
    expect((await upload(user.id, await tinyPng())).statusCode).toBe(429);
  });

  it('holds across app servers sharing the database, for simultaneous uploads too', async () => {
    const second = await buildApp({ config: t.config, db: t.db });
    try {
      const user = await createUser(t.db);
      const data = await tinyPng();
      const attempts = uploadLimit.max + 6;
      const responses = await Promise.all(
        Array.from({ length: attempts }, (_, i) => upload(user.id, data, i % 2 === 0 ? t.app : second)),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(uploadLimit.max);
      expect(statuses.filter((status) => status === 429)).toHaveLength(attempts - uploadLimit.max);
      expect(await imagesOf(user.id)).toHaveLength(uploadLimit.max);
    } finally {
      await second.close();
    }
  });
});

describe('limit of sign-ups with a photo file per address', () => {
  let sequence = 0;
  const fields = (overrides: Record<string, string> = {}) => ({
    name: 'Nadia',
    email: `nadia-${++sequence}@example.com`,
    password: 'Secret123',
    userRole: 'buyer',
    ...overrides,
  });
  async function signUp(remoteAddress: string, form: Record<string, string>, photo?: Buffer) {
    const { payload, headers } = await multipartPayload(form, photo ? [{ data: photo, filename: 'me.png', type: 'image/png' }] : []);
    return t.app.inject({ method: 'POST', url: '/api/auth/signup', payload, headers, remoteAddress });
  }

  it('refuses the sign-up after the limit with 429 before the photo is processed', async () => {
    const address = '198.51.100.40';
    const photo = await tinyPng();
    for (let i = 0; i < signUpLimit.max; i++) expect((await signUp(address, fields(), photo)).statusCode).toBe(201);
    const imageCount = (await t.db.select().from(images)).length;
    const filesBefore = storedFiles().length;

    const refused = await signUp(address, fields(), photo);
    expect(refused.statusCode).toBe(429);
    expectRetryAfterWithin(refused, signUpLimit.windowSeconds);
    expect(refused.json()).toEqual({ success: false, message: 'Too many sign-ups from this address. Try again in 60 minutes.' });
    // A file the pipeline would refuse gets the same answer: the limit comes first.
    expect((await signUp(address, fields(), notAnImage)).statusCode).toBe(429);
    expect(await t.db.select().from(images)).toHaveLength(imageCount);
    expect(storedFiles()).toHaveLength(filesBefore);
  });

  it('answers 400 to a form without a boundary, and does not count refused sign-ups', async () => {
    const address = '198.51.100.44';
    const noBoundary = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: 'name=Nadia',
      headers: { 'content-type': 'multipart/form-data' },
      remoteAddress: address,
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().message).toBe('The form data could not be read: its Content-Type names no boundary.');

    const photo = await tinyPng();
    // A weak password is refused after the photo was processed: that sign-up does not count.
    for (let i = 0; i < signUpLimit.max + 2; i++) {
      expect((await signUp(address, fields({ password: 'weak' }), photo)).statusCode).toBe(400);
    }
    for (let i = 0; i < signUpLimit.max; i++) expect((await signUp(address, fields(), photo)).statusCode).toBe(201);
  });

  it('leaves other addresses, and sign-ups whose photo is a URL, unaffected', async () => {
    const address = '198.51.100.41';
    const photo = await tinyPng();
    for (let i = 0; i < signUpLimit.max; i++) expect((await signUp(address, fields(), photo)).statusCode).toBe(201);
    expect((await signUp(address, fields(), photo)).statusCode).toBe(429);

    expect((await signUp('198.51.100.42', fields(), photo)).statusCode).toBe(201);
    expect((await signUp(address, fields({ image: 'https://images.example.com/nadia.webp' }))).statusCode).toBe(201);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: address,
      payload: { ...fields(), image: 'https://images.example.com/nadia.webp' },
    });
    expect(json.statusCode).toBe(201);
  });

  it('lets the address sign up with a photo again once the window has passed', async () => {
    const address = '198.51.100.43';
    const photo = await tinyPng();
    for (let i = 0; i < signUpLimit.max; i++) await signUp(address, fields(), photo);
    expect((await signUp(address, fields(), photo)).statusCode).toBe(429);
    await t.db.execute(
      sql`update login_throttle set window_started_at = now() - interval '61 minutes' where key = ${`photo-sign-ups:${address}`}`,
    );
    expect((await signUp(address, fields(), photo)).statusCode).toBe(201);
  });
});

describe('a multipart body that is not a form', () => {
  it('answers 400 saying the form could not be read', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: '{"name":"Nadia"}',
      headers: { 'content-type': 'multipart/form-data; boundary=fuzz' },
      remoteAddress: '198.51.100.45',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The form data could not be read.');
  });
});
