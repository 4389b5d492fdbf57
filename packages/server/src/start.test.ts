import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startArguments, startEnvironment } from '../scripts/app-process.ts';
import { freePort, runningClusterUrl } from './db/embedded.ts';
import { embeddedDatabaseDir } from './db/open-database.ts';

/**
 * The app as `npm start` runs it (node with its flags, the bundle start.mjs makes of the sources),
 * killed with SIGKILL in the middle of its work: the next start comes up on the same data by itself
 * (stopping the PostgreSQL the killed one left running), and every write that was acknowledged is
 * there. A second start beside a running one, on its port or its DATA_DIR, stops by itself and
 * leaves the running app, its database, and no PostgreSQL of its own running; `create-admin` works
 * on the running app's database.
 */
const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const running: ChildProcess[] = [];
const dataDirs: string[] = [];
const newDataDir = async () => {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'furniture-start-'));
  dataDirs.push(directory);
  return directory;
};

afterAll(async () => {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
  for (const directory of dataDirs) await fs.rm(directory, { recursive: true, force: true });
});

const bundles = () => fs.readdir(path.join(repositoryRoot, 'packages/server/dist')).catch(() => [] as string[]);

/** Starts the app as `npm start` does; `listening` resolves once it listens, `exited` with its exit code and output. */
function launch(env: Record<string, string>) {
  const child = spawn(process.execPath, startArguments(), {
    cwd: repositoryRoot,
    env: { ...process.env, ...startEnvironment(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  const exited = new Promise<{ code: number | null; output: string }>((resolve) => child.once('exit', (code) => resolve({ code, output })));
  const listening = new Promise<ChildProcess>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('The marketplace is at')) resolve(child);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then(({ code }) => reject(new Error(`The app exited (${code}) before it listened:\n${output}`)));
  });
  listening.catch(() => undefined); // a start expected to fail is awaited through `exited`
  return { listening, exited };
}

/** Starts the app as `npm start` does and resolves once it listens. */
const start = (env: Record<string, string>): Promise<ChildProcess> => launch(env).listening;

/** The command names of a process's children, from /proc. */
async function childCommands(parentPid: number): Promise<string[]> {
  const commands: string[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // "pid (command) state ppid …": the command may hold spaces, so the fields are read around its parentheses.
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent === parentPid) commands.push(command);
  }
  return commands;
}

/** The settings of a start on `dataDir`, listening on `port`, without demo data. */
const settingsFor = (dataDir: string, port: number) => ({
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DEMO_DATA: 'false',
  LOG_LEVEL: 'silent',
  DATABASE_URL: '',
  JWT_SECRET: '',
});

describe('an app server killed with SIGKILL', () => {
  it('starts again on its data, and nothing it acknowledged is lost', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      ...settingsFor(await newDataDir(), port),
      ADMIN_EMAIL: 'root@example.com',
      ADMIN_PASSWORD: 'Admin1234',
      // The writes are an admin's; what is checked is that none acknowledged is lost, not the admin's second step.
      ADMIN_SECOND_STEP: 'optional',
    };
    const signIn = async () => {
      const response = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'root@example.com', password: 'Admin1234' }),
      });
      return { authorization: `bearer ${((await response.json()) as { token: string }).token}`, 'content-type': 'application/json' };
    };

    const first = await start(env);
    const headers = await signIn();
    const acknowledged: string[] = [];
    const writes = Array.from({ length: 40 }, async (_, i) => {
      const categoryName = `Kept ${i}`;
      const response = await fetch(`${base}/api/addCategory`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ categoryName, description: 'Written before the kill', image: 'https://images.example.com/k.webp' }),
      }).catch(() => undefined);
      if (response?.status === 201) acknowledged.push(categoryName);
      // Killed in the middle of the writes: the later ones are never answered.
      if (i === 20) first.kill('SIGKILL');
    });
    await Promise.all(writes);
    expect(acknowledged.length).toBeGreaterThan(0);

    // A source changed since the last start: the next start runs a new bundle, made of it.
    const bundleBefore = await bundles();
    const source = path.join(repositoryRoot, 'packages/server/src/server-dir.ts');
    const { atime, mtime } = await fs.stat(source);
    await fs.utimes(source, atime, new Date());
    let next: ChildProcess;
    try {
      next = await start(env);
    } finally {
      await fs.utimes(source, atime, mtime);
    }
    // The bundler's background process ends with the build, instead of living as long as the app.
    await expect.poll(() => childCommands(next.pid!)).not.toContain('esbuild');
    const bundleAfter = await bundles();
    expect(bundleAfter).toHaveLength(1);
    expect(bundleAfter).not.toEqual(bundleBefore);

    // Files the server reads from its own folder are found from the bundle.
    expect((await fetch(`${base}/demo/armchair-1.svg`)).status).toBe(200);
    const response = await fetch(`${base}/api/allCategories`);
    const stored = ((await response.json()) as Array<{ categoryName: string }>).map((category) => category.categoryName);
    expect(stored).toEqual(expect.arrayContaining(acknowledged));
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  }, 120_000);
});

describe('a second start while an app server runs', () => {
  let first: { dataDir: string; port: number };
  beforeAll(async () => {
    first = { dataDir: await newDataDir(), port: await freePort() };
    await start(settingsFor(first.dataDir, first.port));
  }, 120_000);

  it('on its port, stops and leaves no PostgreSQL of its own running', async () => {
    const dataDir = await newDataDir();
    const second = await launch(settingsFor(dataDir, first.port)).exited;
    expect(second.code).toBe(1);
    expect(second.output).toContain('EADDRINUSE');
    expect(await runningClusterUrl(embeddedDatabaseDir(dataDir))).toBeUndefined();
  }, 120_000);

  it('creates an admin with `npm run create-admin` on the running app’s database, leaving the app serving', async () => {
    const command = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/create-admin.ts', '--email', 'late@example.com', '--password', 'Admin1234'], {
      cwd: repositoryRoot,
      env: { ...process.env, ...settingsFor(first.dataDir, first.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    command.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    command.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = (await once(command, 'exit')) as [number];
    expect(code, output).toBe(0);

    const base = `http://127.0.0.1:${first.port}`;
    expect(await (await fetch(`${base}/api/health`)).json()).toEqual({ status: 'ok', database: 'up' });
    const signIn = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'late@example.com', password: 'Admin1234' }),
    });
    expect(signIn.status).toBe(200);
  }, 120_000);

  it('on its DATA_DIR, stops with a message and leaves the running one and its database alone', async () => {
    const second = await launch(settingsFor(first.dataDir, await freePort())).exited;
    expect(second.code).toBe(1);
    expect(second.output).toContain('Another start of the app is running on this DATA_DIR');
    const health = await fetch(`http://127.0.0.1:${first.port}/api/health`);
    expect(await health.json()).toEqual({ status: 'ok', database: 'up' });
  }, 120_000);
});
