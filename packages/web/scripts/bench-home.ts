/**
 * Builds the web app and prints the gzipped bytes of JavaScript and CSS that the first load of
 * Home and of a product's page or a search download (the entry with its static imports, the page's
 * stylesheet), and what the app adds on the first interaction.
 * Then starts the real server with the demo data on a scratch database (an embedded PostgreSQL
 * unless BENCH_DATABASE_URL names a server whose `postgres` database may create one) and runs
 * Lighthouse's mobile audit of every public page (Home, a product page, a search, categories, a
 * category, blog, login, signup, a seller's profile), printing the four scores and the page's
 * timings. Chromium comes from CHROME_PATH (default /usr/bin/chromium). Figures only: the
 * script never fails on what it measures. `--no-build` reuses dist/, `--no-lighthouse` stops after
 * the byte counts, LIGHTHOUSE_RUNS sets how many runs each page gets (the median is printed) and
 * LIGHTHOUSE_REPORTS names a directory to keep each run's full JSON report in.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { waitUntilAnswering } from '../../server/scripts/app-process.ts';
import { createScratchDatabase } from '../../server/scripts/scratch-database.ts';
import { median } from '../../server/scripts/statistics.ts';
import { freePort } from '../../server/src/db/embedded.ts';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(webDir, '../..');
const distDir = path.join(webDir, 'dist');
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu';

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function printFirstLoadBytes() {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const collect = (key: string, files: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) collect(imported, files);
  };
  const print = (title: string, files: Set<string>, targets: { js: string; css: string }) => {
    const rows = [...files].map((file) => {
      const bytes = fs.readFileSync(path.join(distDir, file));
      return { file, kind: file.endsWith('.css') ? 'css' : 'js', gzip: gzipSync(bytes, { level: 9 }).length };
    });
    rows.sort((a, b) => b.gzip - a.gzip);
    console.log(`${title} (gzip -9):`);
    for (const row of rows) console.log(`  ${row.kind.padEnd(4)}${kb(row.gzip).padStart(10)}  ${row.file}`);
    const total = (kind: string) => rows.filter((row) => row.kind === kind).reduce((sum, row) => sum + row.gzip, 0);
    console.log(`JavaScript: ${kb(total('js'))} gzipped${targets.js}`);
    console.log(`CSS:        ${kb(total('css'))} gzipped${targets.css}`);
  };
  // A page's template on the server names everything its first load fetches: the entry, what it
  // preloads and the page's stylesheet (Home's own, or the app's for a product's page).
  const firstLoadOf = (template: string) =>
    new Set(
      [...fs.readFileSync(path.join(distDir, '.server', template), 'utf8').matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map(
        (match) => match[1]!,
      ),
    );
  const firstLoad = firstLoadOf('home.html');
  print('First load of Home', firstLoad, { js: ' (target 100 KB)', css: ' (target 12 KB)' });
  print('First load of a product’s page or a search', firstLoadOf('page.html'), { js: '', css: '' });
  // A visitor's Home loads the app on the first interaction (decision 29): what that adds.
  const app = new Set<string>();
  collect('src/app/start.tsx', app);
  print('Added by the first interaction', new Set([...app].filter((file) => !firstLoad.has(file))), { js: '', css: '' });
}

interface Audit {
  numericValue?: number;
  details?: { items?: Array<{ resourceType?: string; transferSize?: number }> };
}
interface LighthouseResult {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, Audit>;
}

/**
 * One Lighthouse run (default mobile emulation and throttling) in its own process; null when
 * Lighthouse could not measure the page (a busy machine sometimes loses the trace).
 */
function lighthouse(url: string, reportName: string): LighthouseResult | null {
  const cli = path.join(root, 'node_modules/lighthouse/cli/index.js');
  const run = spawnSync(
    process.execPath,
    [cli, url, '--quiet', '--output=json', '--output-path=stdout', `--chrome-flags=${CHROME_FLAGS}`],
    { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024 },
  );
  const reports = process.env.LIGHTHOUSE_REPORTS;
  if (reports) {
    fs.mkdirSync(reports, { recursive: true });
    fs.writeFileSync(path.join(reports, `${reportName}.json`), run.stdout);
  }
  let result: (LighthouseResult & { runtimeError?: { message: string } }) | null = null;
  try {
    result = JSON.parse(run.stdout.toString('utf8')) as LighthouseResult & { runtimeError?: { message: string } };
  } catch {
    // No report, or one cut short when Lighthouse gave up part way.
  }
  if (!result || result.runtimeError) {
    console.log(`  (${reportName}: ${result?.runtimeError?.message ?? (run.stderr.toString('utf8').trim() || 'no report')})`);
    return null;
  }
  return result;
}


function figures(result: LighthouseResult) {
  const score = (category: string) => Math.round((result.categories[category]?.score ?? 0) * 100);
  const metric = (audit: string) => result.audits[audit]?.numericValue ?? NaN;
  const transferred = (type: string) =>
    (result.audits['network-requests']?.details?.items ?? [])
      .filter((item) => item.resourceType === type)
      .reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    cls: metric('cumulative-layout-shift'),
    tbt: metric('total-blocking-time'),
    js: transferred('Script'),
    css: transferred('Stylesheet'),
  };
}

async function runLighthouse() {
  const database = await createScratchDatabase('web', process.env.BENCH_DATABASE_URL);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), PUBLIC_URL: base, DATABASE_URL: database.url, DEMO_DATA: 'true' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitUntilAnswering(`${base}/api/health`, app);
    const read = <T,>(path: string) => fetch(`${base}/api${path}`).then((response) => response.json() as Promise<T>);
    const advertised = await read<{ data: Array<{ _id: string }> }>('/advertisement');
    const product = await read<{ data: { seller: { _id: string } } }>(`/products/${advertised.data[0]!._id}`);
    const categories = await read<Array<{ _id: string }>>('/allCategories');
    const pages = [
      { name: 'Home', url: `${base}/` },
      { name: 'Product', url: `${base}/product/${advertised.data[0]!._id}` },
      { name: 'Search', url: `${base}/search?q=chair` },
      { name: 'Categories', url: `${base}/categories` },
      { name: 'Category', url: `${base}/category/${categories[0]!._id}` },
      { name: 'Blog', url: `${base}/blog` },
      { name: 'Login', url: `${base}/login` },
      { name: 'Signup', url: `${base}/signup` },
      { name: 'Seller', url: `${base}/seller/${product.data.seller._id}` },
    ];
    console.log(`\nLighthouse ${RUNS}× per page, mobile, median (load average before: ${os.loadavg().map((n) => n.toFixed(2)).join(', ')})`);
    console.log('| Page | Perf | A11y | Best pr. | SEO | FCP | LCP | CLS | TBT | JS transferred | CSS transferred |');
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const page of pages) {
      const runs = Array.from({ length: RUNS }, (_, run) => lighthouse(page.url, `${page.name.toLowerCase()}-${run + 1}`))
        .filter((result) => result !== null)
        .map(figures);
      if (!runs.length) {
        console.log(`| ${page.name} | no run completed |`);
        continue;
      }
      const m = <K extends keyof ReturnType<typeof figures>>(key: K) => median(runs.map((run) => run[key]));
      console.log(
        `| ${page.name} | ${m('performance')} (${runs.map((run) => run.performance).join('/')}) | ${m('accessibility')} | ${m('bestPractices')} | ${m('seo')} | ` +
          `${(m('fcp') / 1000).toFixed(2)} s | ${(m('lcp') / 1000).toFixed(2)} s | ${m('cls').toFixed(3)} | ${Math.round(m('tbt'))} ms | ` +
          `${kb(m('js'))} | ${kb(m('css'))} |`,
      );
    }
    console.log(`Load average after: ${os.loadavg().map((n) => n.toFixed(2)).join(', ')}`);
  } finally {
    // An app that already stopped (it failed to start) sends no second exit event.
    if (app.exitCode === null && app.signalCode === null) {
      app.kill('SIGTERM');
      await new Promise((resolve) => app.once('exit', resolve));
    }
    await database.drop();
  }
}

if (!process.argv.includes('--no-build')) {
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: webDir,
    stdio: 'inherit',
  });
}
printFirstLoadBytes();
if (!process.argv.includes('--no-lighthouse')) await runLighthouse();
