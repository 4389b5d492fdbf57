/**
 * `npm start`: runs src/start.ts from one bundle of the server's and the contract's TypeScript,
 * made by esbuild into dist/<stamp>/ when the sources changed since the last one (decision 25).
 * Compiling ~400 modules and loading them through tsx's hooks was most of a start's CPU time and
 * a fifth of an idle server's memory. Tests and scripts still run the sources through tsx.
 *
 * The stamp is the newest modification time among the sources and their folders (a deleted file
 * changes its folder's), so an edit, a deletion or a checkout makes a new bundle. Servers starting
 * together each build into a folder of their own and the first to rename it wins.
 *
 * `npm start` runs this file as `node --max-semi-space-size=8 --min-semi-space-size=8
 * --max-old-space-size=256` (the root package.json): V8 sizes its heap as the process starts, not
 * later. Its default young generation (16 MB a semi-space, both touched once the server has been
 * busy) was a fifth of an idle server's memory, and without a cap the old generation held much
 * garbage from a busy spell until its next full collection. The semi-spaces are 8 MB from the
 * start: at 4 MB a busy server collected its young generation every few hundred requests, a pause
 * for every request in flight (decision 25).
 *
 * The start script also sets `MALLOC_ARENA_MAX=2`, which glibc reads as the process starts. libvips
 * decodes uploaded images on threads of its own, and glibc gave each such thread a memory arena of
 * its own, which kept what a decode had freed: after a burst of large uploads the server stayed
 * near its peak. With two arenas that memory is reused, and the peak itself is lower.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const serverDir = path.dirname(fileURLToPath(import.meta.url));
const contractDir = path.resolve(serverDir, '../contract');
const distDir = path.join(serverDir, 'dist');

/** The newest modification time (ms) of a folder, and of every file and folder in it. */
function newestChange(dir) {
  let newest = fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(entryPath) : fs.statSync(entryPath).mtimeMs);
  }
  return newest;
}

const packageFiles = [path.join(serverDir, 'package.json'), path.join(contractDir, 'package.json')];
const stamp = Math.floor(
  Math.max(newestChange(path.join(serverDir, 'src')), newestChange(path.join(contractDir, 'src')), ...packageFiles.map((file) => fs.statSync(file).mtimeMs)),
).toString(36);
const bundleDir = path.join(distDir, stamp);

if (!fs.existsSync(path.join(bundleDir, 'start.js'))) {
  // Packages stay in node_modules, loaded as they are; only the workspace's TypeScript is bundled.
  const external = packageFiles
    .flatMap((file) => Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')).dependencies ?? {}))
    .filter((name) => !name.startsWith('@furniture/'));
  const buildDir = path.join(distDir, `building-${process.pid}`);
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(serverDir, 'src/start.ts')],
    outdir: buildDir,
    bundle: true,
    // Modules imported on demand (the S3 and Stripe clients, OpenID) stay out of the start-up.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: [...external, ...external.map((name) => `${name}/*`)],
    logLevel: 'warning',
  });
  // The build runs in esbuild's own process, which would otherwise stay beside the app as long as it runs.
  await esbuild.stop();
  try {
    fs.renameSync(buildDir, bundleDir);
  } catch {
    fs.rmSync(buildDir, { recursive: true, force: true }); // another start renamed its bundle first
  }
  for (const old of fs.readdirSync(distDir)) {
    if (old !== stamp && !old.startsWith('building-')) fs.rmSync(path.join(distDir, old), { recursive: true, force: true });
  }
}

await import(pathToFileURL(path.join(bundleDir, 'start.js')).href);
