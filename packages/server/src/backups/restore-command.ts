import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { BackupCommandError, restoreBackup } from './backup-commands.ts';

/**
 * `npm run restore -- [--to "2026-11-28 14:00"]`: the embedded database as it was at the end of
 * the archived WAL, or at that time (this machine's time zone unless the time names one).
 */
try {
  const { values } = parseArgs({ options: { to: { type: 'string' } } });
  const to = values.to === undefined ? undefined : new Date(values.to);
  if (to && Number.isNaN(to.getTime())) throw new BackupCommandError(`--to "${values.to}" is not a time; write it as "2026-11-28 14:00".`);
  await restoreBackup(loadConfig(), { to, log: (line) => console.log(line) });
} catch (error) {
  console.error(error instanceof BackupCommandError || error instanceof TypeError ? (error as Error).message : error);
  process.exit(1);
}
