import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const repoDir = path.resolve(webDir, '../..');
const distIndex = path.join(webDir, 'dist/index.html');
const sources = [
  path.join(webDir, 'src'),
  path.join(webDir, 'public'),
  path.join(webDir, 'index.html'),
  path.join(webDir, 'vite.config.ts'),
  // The build's own plugins (Home's render module and stylesheet, compression).
  path.join(webDir, 'scripts'),
  path.join(repoDir, 'packages/contract/src'),
];
const lockDir = path.join(os.tmpdir(), 'furniture-web-build.lock');

function newestChange(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestChange(path.join(entry, child)));
  return newest;
}

function isFresh(): boolean {
  if (!fs.existsSync(distIndex)) return false;
  const built = fs.statSync(distIndex).mtimeMs;
  return sources.every((source) => newestChange(source) <= built);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withLock<T>(run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock older than the longest build belongs to a run that died.
      const age = Date.now() - fs.statSync(lockDir, { throwIfNoEntry: false })!.mtimeMs;
      if (age > 300_000) fs.rmSync(lockDir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lockDir}`);
      await sleep(250);
    }
  }
  try {
    return await run();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * The server serves packages/web/dist. `npm test` builds it first; when the tests run on their
 * own, the first test file to get here rebuilds it if any source is newer, and the others wait.
 */
export async function ensureWebBuild(): Promise<void> {
  if (isFresh()) return;
  await withLock(async () => {
    if (isFresh()) return;
    const vite = path.join(repoDir, 'node_modules/vite/bin/vite.js');
    // The test runner sets NODE_ENV=test, which would make Vite bundle React's development build.
    await promisify(execFile)(process.execPath, [vite, 'build', '--logLevel', 'error'], {
      cwd: webDir,
      env: { ...process.env, NODE_ENV: 'production' },
    });
  });
}
