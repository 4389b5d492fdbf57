import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's folder: the nearest one above this module with a package.json. Files the
 * server reads from its own folder are named from here, so that they are found both from the
 * sources (src/) and from the bundle `npm start` runs (dist/<stamp>/, see start.mjs).
 */
function nearestPackageDir(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (dir === path.dirname(dir)) throw new Error(`No package.json above ${from}`);
  }
}

export const serverDir = nearestPackageDir(path.dirname(fileURLToPath(import.meta.url)));

/** The built web app the server sends. */
export const webDistDir = path.resolve(serverDir, '../web/dist');
