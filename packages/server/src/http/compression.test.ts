import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../test/app.ts';
import { webDistDir } from '../server-dir.ts';

// The web app as `npm run build` left it (the test script builds before the tests run).
const t = setupTestApp();

const assetsDir = path.join(webDistDir, 'assets');
const largestScript = fs
  .readdirSync(assetsDir)
  .filter((file) => file.endsWith('.js'))
  .map((file) => ({ file, size: fs.statSync(path.join(assetsDir, file)).size }))
  .sort((a, b) => b.size - a.size)[0]!.file;

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('compression', () => {
  it('writes a brotli and a gzip copy of every text file the web app serves, at build time', () => {
    // Dot folders hold what only the server reads (Home's render module), never served.
    const served = (file: string) => !file.split(path.sep).some((part) => part.startsWith('.'));
    const textFiles = fs
      .readdirSync(webDistDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => served(file) && /\.(js|css|html|svg)$/.test(file) && fs.statSync(path.join(webDistDir, file)).size >= 1024);
    expect(textFiles.length).toBeGreaterThan(3);
    for (const file of textFiles) {
      expect(fs.existsSync(path.join(webDistDir, `${file}.br`)), `${file}.br`).toBe(true);
      expect(fs.existsSync(path.join(webDistDir, `${file}.gz`)), `${file}.gz`).toBe(true);
    }
  });

  it('sends a script as brotli, gzip or as it is, whichever the browser accepts, with the same bytes inside', async () => {
    const original = fs.readFileSync(path.join(assetsDir, largestScript));

    const brotli = await get(`/assets/${largestScript}`, 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.rawPayload.length).toBeLessThan(original.length / 2);
    expect(zlib.brotliDecompressSync(brotli.rawPayload).equals(original)).toBe(true);

    const gzip = await get(`/assets/${largestScript}`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).equals(original)).toBe(true);

    const plain = await get(`/assets/${largestScript}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(original)).toBe(true);
  });

  it('compresses API answers above 1 KB for clients that accept it, and leaves small ones alone', async () => {
    const large = await get('/api/openapi.json', 'gzip');
    expect(large.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(large.rawPayload).toString()).openapi).toBe('3.1.0');

    const small = await get('/api/health', 'gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ status: 'ok' });
  });

  it("compresses the app's pages, Home rendered by the server included, for clients that accept it", async () => {
    for (const url of ['/', '/search?q=chair', '/no-such-page']) {
      const brotli = await get(url, 'gzip, deflate, br');
      expect(brotli.headers['content-encoding'], url).toBe('br');
      expect(brotli.headers.vary).toMatch(/accept-encoding/i);
      expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toContain('<div id="root"');
      const plain = await get(url);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toContain('<div id="root"');
    }
    const refused = await get('/', 'br;q=0, gzip');
    expect(refused.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(refused.rawPayload).toString()).toContain('<div id="root"');
  });

});
