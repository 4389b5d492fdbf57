import { sql } from 'drizzle-orm';
import { passwordSchema } from '@furniture/contract';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { hashPassword } from './passwords.ts';
import { capabilitiesOf, grantCapability } from './user-repository.ts';
import { endAllSessions } from './refresh-tokens.ts';

export type AdminBootstrapResult = 'created' | 'promoted' | 'unchanged';

/**
 * Makes sure an admin account exists for this e-mail: creates it with the password, or promotes
 * and verifies an existing account (whose password is then replaced, and its sessions ended). Used by ADMIN_EMAIL and
 * ADMIN_PASSWORD at start-up and by `npm run create-admin`.
 */
export async function ensureAdmin(db: Database, email: string, password: string): Promise<AdminBootstrapResult> {
  const checked = passwordSchema.safeParse(password);
  if (!checked.success) throw new Error(`The admin password is too weak: ${checked.error.issues[0]!.message}`);
  const normalized = email.trim().toLowerCase();
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(users).where(sql`lower(${users.email}) = ${normalized}`).for('update');
    if (!existing) {
      await tx.insert(users).values({ name: 'Admin', email: normalized, role: 'admin', capabilities: capabilitiesOf('admin'), verified: true, emailVerified: true, passwordHash });
      return 'created';
    }
    if (existing.role === 'admin') return 'unchanged';
    await grantCapability(tx, existing.id, 'admin');
    await tx.update(users).set({ verified: true, emailVerified: true, passwordHash }).where(sql`${users.id} = ${existing.id}`);
    // Whoever signed in with the old password is signed out.
    await endAllSessions(tx, existing.id);
    return 'promoted';
  });
}
