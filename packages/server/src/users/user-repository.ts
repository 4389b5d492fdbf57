import { and, asc, eq, sql } from 'drizzle-orm';
import type { ManagedUser, PublicUser, SelfServiceRole, UserRole } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;

declare module '../http/access.ts' {
  // The signed-in account of a request is the whole row (merged into access control's interface).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface SignedInUser extends UserRow {}
}

export function toPublicUser(user: UserRow): PublicUser {
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    image: user.image,
    userRole: user.role,
    verified: user.verified,
    emailVerified: user.emailVerified,
  };
}

export function toManagedUser(user: UserRow): ManagedUser {
  return { ...toPublicUser(user), suspended: user.suspendedAt !== null };
}

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return user;
}

export interface NewUser {
  name: string;
  email: string;
  image?: string | null;
  role: UserRole;
  passwordHash?: string | null;
  verified?: boolean;
  emailVerified?: boolean;
}

/** Inserts a user; answers undefined when the e-mail is already taken. */
export async function insertUser(db: Executor, user: NewUser): Promise<UserRow | undefined> {
  const [row] = await db
    .insert(users)
    .values({ ...user, email: user.email.toLowerCase() })
    .onConflictDoNothing()
    .returning();
  return row;
}

/**
 * Fills in a profile that was saved without credentials (earlier versions let the
 * specification's /userAddToDb save one for any e-mail) when its owner signs up with a password.
 * It starts unverified: nothing decided before the owner proved the e-mail carries over. Accounts
 * that have a password or an OpenID identity are never taken over.
 */
export async function claimProfile(
  db: Executor,
  email: string,
  profile: { name: string; image?: string | null; role: SelfServiceRole; passwordHash: string },
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...profile, verified: false, emailVerified: false })
    .where(
      and(
        sql`lower(${users.email}) = ${email.toLowerCase()}`,
        sql`${users.passwordHash} is null`,
        sql`${users.role} <> 'admin'`,
        sql`not exists (select 1 from user_identities i where i.user_id = ${users.id})`,
      ),
    )
    .returning();
  return row;
}

export async function listUsersByRole(db: Executor, role: UserRole, page: { limit: number; offset: number }) {
  return db.select().from(users).where(eq(users.role, role)).orderBy(asc(users.createdAt), asc(users.id)).limit(page.limit).offset(page.offset);
}
