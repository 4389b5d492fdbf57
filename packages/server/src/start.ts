import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { backupLocations } from './backups/backups.ts';
import type { App } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { ClusterInUseError } from './db/embedded.ts';
import { openDatabase } from './db/open-database.ts';
import { demoAccounts, loadDemoData } from './demo/demo-data.ts';
import { webDistDir } from './server-dir.ts';
import { ensureAdmin } from './users/admin-bootstrap.ts';

/** The process entry point: settings, database, the app, and a clean shutdown. */
const log = (line: string) => console.log(`[furniture] ${line}`);

function buildWebAppIfMissing() {
  if (fs.existsSync(path.join(webDistDir, 'index.html'))) return;
  log('Building the web app (first start)');
  const result = spawnSync('npm', ['run', 'build', '-w', '@furniture/web'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The web app did not build; see the output above.');
}

async function main() {
  const config = loadConfig();
  buildWebAppIfMissing();
  // The app's modules load while the embedded PostgreSQL starts: two processes, on two cores.
  const appModule = import('./app.ts');
  const database = await openDatabase(config, log);
  let app: App | undefined;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log(`${signal} received, shutting down`);
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // A closed terminal: without this the embedded database would be left running.
  process.on('SIGHUP', () => void shutdown('SIGHUP'));

  try {
    if (config.admin) {
      const result = await ensureAdmin(database.db, config.admin.email, config.admin.password);
      log(`Admin ${config.admin.email}: ${result}`);
    }
    if (config.demoData && (await loadDemoData(database.db, config.publicUrl))) {
      log('Loaded the demo data. Demo accounts (e-mail / password):');
      for (const account of demoAccounts) log(`  ${account.role.padEnd(6)} ${account.email} / ${account.password}`);
    }

    const { buildApp } = await appModule;
    // The embedded database is backed up by the app; an external one by its own server.
    app = await buildApp({ config, db: database.db, backups: config.databaseUrl ? undefined : backupLocations(config) });
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // A start that fails (its port taken, say) stops the embedded PostgreSQL it started, which would outlive it.
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
  log(`Data: ${database.description}`);
  log(`The marketplace is at ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof ClusterInUseError) {
    console.error(`[furniture] ${error.message}`);
  } else {
    console.error('[furniture] Start-up failed:', error);
  }
  process.exit(1);
});
