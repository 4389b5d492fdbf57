import { and, eq, sql } from 'drizzle-orm';
import { imageUrlSchema, serverMessages } from '@furniture/contract';
import type { Database, Executor } from '../db/client.ts';
import { userIdentities, users } from '../db/schema/index.ts';
import { findUserByEmail, findUserById, insertUser, type UserRow } from './user-repository.ts';

/** What the provider says about the person, from the ID token (and userinfo where needed). */
export interface OidcProfile {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
  picture?: string;
}

export type OidcOutcome =
  | { kind: 'signed-in'; user: UserRow; created: boolean }
  /** An account with a password has this verified e-mail: its owner must prove the password. */
  | { kind: 'link-required'; user: UserRow }
  | { kind: 'refused'; message: string };

export async function findUserByIdentity(db: Executor, issuer: string, subject: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)));
  return row?.user;
}

/**
 * Links an identity to an account; answers false when the identity already belongs to another one.
 * Only identities whose provider verified the account's e-mail are linked, so the e-mail is verified too.
 */
export async function linkIdentity(db: Executor, userId: string, issuer: string, subject: string): Promise<boolean> {
  await db.insert(userIdentities).values({ issuer, subject, userId }).onConflictDoNothing();
  const owner = await findUserByIdentity(db, issuer, subject);
  if (owner?.id !== userId) return false;
  await db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
  return true;
}

async function hasIdentity(db: Executor, userId: string): Promise<boolean> {
  const [row] = await db.select({ userId: userIdentities.userId }).from(userIdentities).where(eq(userIdentities.userId, userId)).limit(1);
  return Boolean(row);
}

const nameOf = (profile: OidcProfile, email: string) => (profile.name?.trim() || email.split('@')[0]!).slice(0, 100);
const pictureOf = (profile: OidcProfile) => {
  const parsed = imageUrlSchema.safeParse(profile.picture);
  return parsed.success ? parsed.data : null;
};

/**
 * Decides who an OpenID identity signs in as. An account is found by issuer and subject only,
 * never by e-mail alone: a known identity signs in to its account even after the e-mail changed
 * at the provider. A new identity creates a buyer account, unless its e-mail already has one:
 *   - with a password, and the provider verified the e-mail: the owner proves the password to link;
 *   - a profile saved without any credentials, and the e-mail verified: the identity takes it;
 *   - anything else is refused, and the person signs in the way the account was made.
 */
export async function resolveOidcAccount(db: Database, profile: OidcProfile): Promise<OidcOutcome> {
  const known = await findUserByIdentity(db, profile.issuer, profile.subject);
  if (known) return { kind: 'signed-in', user: known, created: false };

  const email = profile.email?.trim().toLowerCase();
  if (!email) return { kind: 'refused', message: serverMessages.google.noEmail };

  const created = await db.transaction(async (tx) => {
    const user = await insertUser(tx, {
      name: nameOf(profile, email),
      email,
      image: pictureOf(profile),
      role: 'buyer',
      verified: false,
      emailVerified: profile.emailVerified,
    });
    if (user) await tx.insert(userIdentities).values({ issuer: profile.issuer, subject: profile.subject, userId: user.id });
    return user;
  });
  if (created) return { kind: 'signed-in', user: created, created: true };

  const existing = await findUserByEmail(db, email);
  if (!existing || !profile.emailVerified) return { kind: 'refused', message: serverMessages.google.emailTaken };
  if (existing.passwordHash) return { kind: 'link-required', user: existing };
  if (existing.role === 'admin' || (await hasIdentity(db, existing.id))) {
    return { kind: 'refused', message: serverMessages.google.signsInAnotherWay };
  }
  // A profile without credentials (saved by earlier versions' /userAddToDb): the verified owner of the
  // e-mail takes it, unverified, as claimProfile does.
  const claimed = await db
    .transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({ name: nameOf(profile, email), image: pictureOf(profile) ?? existing.image, verified: false, emailVerified: true })
        .where(and(eq(users.id, existing.id), sql`${users.passwordHash} is null`))
        .returning();
      if (!row) return undefined;
      // Another sign-in of the same identity got there first: undo the update.
      if (!(await linkIdentity(tx, row.id, profile.issuer, profile.subject))) tx.rollback();
      return row;
    })
    .catch(() => undefined);
  return claimed ? { kind: 'signed-in', user: claimed, created: false } : { kind: 'refused', message: serverMessages.google.emailTaken };
}

/** The account a pending link points at, if it still has a password to prove. */
export async function findLinkTarget(db: Database, userId: string): Promise<UserRow | undefined> {
  const user = await findUserById(db, userId);
  return user?.passwordHash ? user : undefined;
}
