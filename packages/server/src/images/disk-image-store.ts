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

/** Written beside and renamed, so a half-written file is never served nor restored. */
const partialNameOf = (file: string) => `${file}.${randomBytes(6).toString('hex')}.partial`;

/** Writes the file and makes it, and its name, survive a crash before returning. */
async function writeDurably(file: string, data: Buffer): Promise<void> {
  const partial = partialNameOf(file);
  const handle = await fs.open(partial, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(partial, file);
  const folder = await fs.open(path.dirname(file), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/**
 * Images as files under DATA_DIR/uploads, served by the app at /uploads/... (see
 * images-plugin.ts). Fits one app server, or several sharing one directory. Given `backupDir`
 * (BACKUP_DIR/uploads), each image is also written there, durably, before `save` returns, so an
 * image acknowledged to its uploader survives the loss of DATA_DIR (decision 46). Removing leaves
 * the backup copy: the backup job prunes it.
 */
export function createDiskImageStore(dataDir: string, publicUrl: string, options: { backupDir?: string } = {}): ImageStore {
  const { backupDir } = options;
  return {
    kind: 'disk',
    async save(key, data) {
      const file = fileOf(dataDir, key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const partial = partialNameOf(file);
      await fs.writeFile(partial, data, { flag: 'wx' });
      await fs.rename(partial, file);
      // After the store's copy, never before: the backup job prunes backup copies missing from the store.
      if (backupDir) {
        await fs.mkdir(backupDir, { recursive: true });
        await writeDurably(path.join(backupDir, path.basename(file)), data);
      }
    },
    async remove(keys) {
      await Promise.all(keys.map((key) => fs.rm(fileOf(dataDir, key), { force: true })));
    },
    urlOf: (key) => `${publicUrl}/${key}`,
  };
}
