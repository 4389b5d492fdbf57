import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.ts';
import { createUser } from '../demo/factories.ts';
import { deleteImages } from '../images/image-repository.ts';
import { nextOutcome } from '../jobs/job-clock.ts';
import { enqueueJob } from '../jobs/job-queue.ts';
import { bearer, testConfig } from '../../test/app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { jpegImage, multipartPayload } from '../../test/images.ts';
import { backupTask } from './backups-plugin.ts';
import { backupLocations } from './backups.ts';

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-image-backups-'));
const dataDir = path.join(root, 'data');
const backupDir = path.join(root, 'backups');
const config = testConfig({ dataDir, backupDir, publicUrl: 'http://localhost:5000' });

let database: TestDatabase;
let app: App;
beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({ config, db: database.db, jobs: { recurring: false }, backups: backupLocations(config) });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
  await fs.rm(root, { recursive: true, force: true });
});

async function upload(): Promise<{ url: string; thumbnailUrl: string }> {
  const user = await createUser(database.db, { password: null });
  const { payload, headers } = await multipartPayload({}, [{ data: await jpegImage(800, 600) }]);
  const response = await app.inject({ method: 'POST', url: '/api/images', payload, headers: { ...headers, ...(await bearer(app, user.id)) } });
  expect(response.statusCode).toBe(201);
  return response.json().data;
}

const keyOf = (url: string) => new URL(url).pathname.slice(1);
const storedFile = (url: string) => path.join(dataDir, keyOf(url));
const backupFile = (url: string) => path.join(backupDir, 'uploads', path.basename(keyOf(url)));
const exists = (file: string) => fs.access(file).then(
  () => true,
  () => false,
);

describe('the backup of uploaded images', () => {
  it('holds an uploaded image and its thumbnail as soon as the upload is answered', async () => {
    const image = await upload();
    for (const url of [image.url, image.thumbnailUrl]) {
      expect(await fs.readFile(backupFile(url))).toEqual(await fs.readFile(storedFile(url)));
    }
    expect((await fs.readdir(path.join(backupDir, 'uploads'))).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('loses the copies of images deleted from the store at the backup job’s next run, and keeps the others', async () => {
    const kept = await upload();
    const deleted = await upload();
    await deleteImages(database.db, app.imageStore, [keyOf(deleted.url)]);
    expect(await exists(storedFile(deleted.url))).toBe(false);
    expect(await exists(backupFile(deleted.url))).toBe(true);

    // A base backup finished just now: this run only tends to the images.
    const recent = path.join(backupDir, 'base', 'recent');
    await fs.mkdir(recent, { recursive: true });
    const now = new Date().toISOString();
    await fs.writeFile(path.join(recent, 'backup.json'), JSON.stringify({ startedAt: now, finishedAt: now, startWal: '000000010000000000000001' }));
    const done = nextOutcome(app, (outcome) => outcome.task === backupTask.name);
    await enqueueJob(database.db, backupTask, { tick: now });
    expect(await done).toMatchObject({ status: 'succeeded' });

    expect(await exists(backupFile(deleted.url))).toBe(false);
    expect(await exists(backupFile(deleted.thumbnailUrl))).toBe(false);
    expect(await exists(backupFile(kept.url))).toBe(true);
    expect(await exists(backupFile(kept.thumbnailUrl))).toBe(true);
  });
});
