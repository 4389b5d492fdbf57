import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ImageStore } from './image-store.ts';

/** A key is `uploads/<name>.webp`: nothing that could step outside the data directory. */
const SAFE_KEY = /^uploads\/[A-Za-z0-9-]+(\.thumb)?\.webp$/;

function fileOf(dataDir: string, key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`Not an image key: ${key}`);
  return path.join(dataDir, key);
}

/**
 * Images as files under DATA_DIR/uploads, served by the app at /uploads/... (see
 * images-plugin.ts). Fits one app server, or several sharing one directory.
 */
export function createDiskImageStore(dataDir: string, publicUrl: string): ImageStore {
  return {
    kind: 'disk',
    async save(key, data) {
      const file = fileOf(dataDir, key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written beside and renamed, so a half-written file is never served.
      const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
      await fs.writeFile(partial, data, { flag: 'wx' });
      await fs.rename(partial, file);
    },
    async remove(keys) {
      await Promise.all(keys.map((key) => fs.rm(fileOf(dataDir, key), { force: true })));
    },
    urlOf: (key) => `${publicUrl}/${key}`,
  };
}
