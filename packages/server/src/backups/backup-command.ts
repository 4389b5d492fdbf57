import { loadConfig } from '../config.ts';
import { BackupCommandError, backupNow } from './backup-commands.ts';

/** `npm run backup`: a base backup of the embedded database now (decision 36). */
try {
  const backup = await backupNow(loadConfig());
  console.log(`Backed up: base backup ${backup.name}, finished at ${backup.finishedAt}`);
} catch (error) {
  console.error(error instanceof BackupCommandError ? error.message : error);
  process.exit(1);
}
