/**
 * Builds the web app and prints the gzipped bytes of JavaScript and CSS that the first load of
 * Home downloads: the entry with its static imports, plus the Home route chunk and its imports.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const JS_BUDGET_BYTES = 120 * 1024;
const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(webDir, 'dist');
const homeRouteModule = 'src/app/routes/home.tsx';

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

if (!process.argv.includes('--no-build')) {
  execFileSync(process.execPath, [path.join(webDir, '../../node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: webDir,
    stdio: 'inherit',
  });
}

const manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;

function collect(key: string, files: Set<string>) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  if (files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) collect(imported, files);
}

const files = new Set<string>();
collect('index.html', files);
collect(homeRouteModule, files);

const rows = [...files].map((file) => {
  const bytes = fs.readFileSync(path.join(distDir, file));
  return { file, kind: file.endsWith('.css') ? 'css' : 'js', raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
});
rows.sort((a, b) => b.gzip - a.gzip);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log('First load of Home (gzip -9):');
for (const row of rows) console.log(`  ${row.kind.padEnd(4)}${kb(row.gzip).padStart(10)}  ${row.file}`);
const total = (kind: string) => rows.filter((row) => row.kind === kind).reduce((sum, row) => sum + row.gzip, 0);
const js = total('js');
const css = total('css');
console.log(`JavaScript: ${kb(js)} gzipped (budget ${kb(JS_BUDGET_BYTES)})${js > JS_BUDGET_BYTES ? ' OVER BUDGET' : ''}`);
console.log(`CSS:        ${kb(css)} gzipped`);
