import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import { mainRole, roleCapabilities, type Capability, type ManagedUser, type OwnAccount, type PublicUser, type SelfServiceRole, type UserRole } from '@furniture/contract';
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
    capabilities: user.capabilities,
    verified: user.verified,
    emailVerified: user.emailVerified,
  };
}

export function toManagedUser(user: UserRow): ManagedUser {
  return { ...toPublicUser(user), suspended: user.suspendedAt !== null };
}

/** The account as its owner sees it in Settings. */
export const toOwnAccount = (user: UserRow): OwnAccount => ({
  _id: user.id,
  name: user.name,
  email: user.email,
  image: user.image,
  phone: user.phone,
  location: user.location,
  emailVerified: user.emailVerified,
  hasPassword: user.passwordHash !== null,
});

/** What a new account with this main role may do. */
export const capabilitiesOf = (role: UserRole): Capability[] => [...roleCapabilities[role]];

/**
 * Lets an account do one more thing, keeping everything it could do; its main role follows
 * (decision 37). The row is locked, so two grants at once both stay. Undefined for no such account.
 */
export async function grantCapability(db: Executor, userId: string, capability: Capability): Promise<UserRow | undefined> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user || user.capabilities.includes(capability)) return user;
    const held = [...user.capabilities, capability];
    const [granted] = await tx.update(users).set({ capabilities: held, role: mainRole(held) }).where(eq(users.id, userId)).returning();
    return granted;
  });
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
    .values({ ...user, email: user.email.toLowerCase(), capabilities: capabilitiesOf(user.role) })
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
    .set({ ...profile, capabilities: capabilitiesOf(profile.role), verified: false, emailVerified: false })
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

/** `%`, `_` and `\\` match themselves in a search, not any text. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;

/** A deleted account keeps its row, which payments and reviews name, but holds no capability (decision 44). */
const notDeleted = sql`cardinality(${users.capabilities}) > 0`;

/**
 * The accounts of one main role, oldest first, deleted ones left out; with `search`, those whose
 * name or e-mail contains it (trigram indexes).
 */
export async function listUsersByRole(db: Executor, role: UserRole, page: { limit: number; offset: number }, search?: string) {
  const matches = search ? or(ilike(users.name, containing(search)), ilike(users.email, containing(search))) : undefined;
  return db
    .select()
    .from(users)
    .where(and(eq(users.role, role), notDeleted, matches))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(page.limit)
    .offset(page.offset);
}
