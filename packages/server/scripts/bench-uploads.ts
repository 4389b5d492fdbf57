/**
 * The upload burst of issue 42: 60 uploads of a 40-megapixel JPEG sent at once from 6 accounts,
 * with 60 ordinary requests (searches, a product list, health) sent during it, against the
 * marketplace started as `npm start` starts it (its own process) on a scratch database. Prints
 * the answers' status codes, the app process's resident memory (sampled every 100 ms) at its peak
 * during the burst, and how it fell over the minute after. Asserts nothing.
 *
 *   npm run bench:uploads                (BENCH_DATABASE_URL: a PostgreSQL server to use instead of an embedded one)
 */
import fs from 'node:fs/promises';
import sharp from 'sharp';
import { createDatabase } from '../src/db/client.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../src/demo/factories.ts';
import { signIn, startApp, waitUntilAnswering } from './bench-throughput.ts';
import { createScratchDatabase } from './scratch-database.ts';

const UPLOADS = 60;
const ACCOUNTS = 6;
const OTHER_REQUESTS = 60;
const AFTER_SECONDS = 60;

/** Resident memory of a process in MB, from /proc. */
async function rssMb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** A 7,300 × 5,475 JPEG (39.97 megapixels): soft shapes from upscaled noise, a few MB as a camera's would be. */
async function largeJpeg(): Promise<Buffer> {
  const width = 292;
  const height = 219;
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(Math.random() * 256);
  return sharp(noise, { raw: { width, height, channels: 3 } }).resize(7300, 5475).jpeg({ quality: 80 }).toBuffer();
}

const tally = (codes: number[]) =>
  Object.entries(codes.reduce<Record<string, number>>((counts, code) => ({ ...counts, [code]: (counts[code] ?? 0) + 1 }), {}))
    .map(([code, n]) => `${n} × ${code}`)
    .join(', ');

async function main() {
  const database = await createScratchDatabase('uploads', process.env.BENCH_DATABASE_URL);
  const { db, pool } = createDatabase(database.url, 2);
  const { base, app } = await startApp(database.url, {});
  try {
    await waitUntilAnswering(`${base}/api/health`, app);
    const image = await largeJpeg();
    console.log(`image: 7300 × 5475 JPEG, ${(image.length / 1024 / 1024).toFixed(1)} MB`);
    const accounts: Array<{ authorization: string }> = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const user = await createUser(db, { role: 'seller' });
      accounts.push(await signIn(base, user.email, DEFAULT_TEST_PASSWORD));
    }
    const pid = app.pid!;
    console.log(`app RSS before: ${(await rssMb(pid)).toFixed(0)} MB`);

    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await rssMb(pid));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const upload = (headers: { authorization: string }) => {
      const form = new FormData();
      form.append('image', new Blob([image], { type: 'image/jpeg' }), 'photo.jpg');
      return fetch(`${base}/api/images`, { method: 'POST', headers, body: form }).then(
        (response) => response.status,
        () => 0,
      );
    };
    const others = ['/api/health', '/api/products?q=chair', '/api/products?sort=newest', '/api/advertisement'];
    const started = performance.now();
    const uploads = Array.from({ length: UPLOADS }, (_, i) => upload(accounts[i % ACCOUNTS]!));
    const ordinary = Array.from({ length: OTHER_REQUESTS }, (_, i) =>
      fetch(`${base}${others[i % others.length]}`).then(
        async (response) => ((await response.arrayBuffer()), response.status),
        () => 0,
      ),
    );
    const uploadCodes = await Promise.all(uploads);
    const burstSeconds = (performance.now() - started) / 1000;
    const otherCodes = await Promise.all(ordinary);
    sampling = false;
    await sampler;

    console.log(`uploads (${UPLOADS}): ${tally(uploadCodes)} in ${burstSeconds.toFixed(1)} s`);
    console.log(`ordinary requests (${OTHER_REQUESTS}): ${tally(otherCodes)}`);
    console.log(`app RSS peak during the burst: ${peak.toFixed(0)} MB`);
    for (let second = 0; second <= AFTER_SECONDS; second += 10) {
      if (second > 0) await new Promise((resolve) => setTimeout(resolve, 10_000));
      console.log(`app RSS ${second} s after: ${(await rssMb(pid)).toFixed(0)} MB`);
    }
  } finally {
    if (app.exitCode === null) {
      const exited = new Promise((resolve) => app.once('exit', resolve));
      app.kill('SIGTERM');
      await exited;
    }
    await pool.end();
    await database.drop();
  }
}

await main();
