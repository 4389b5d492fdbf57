import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { capabilities, userRoles } from '@furniture/contract';

export const userRole = pgEnum('user_role', userRoles);
export const userCapability = pgEnum('user_capability', capabilities);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** Stored lower-cased; the unique index makes e-mail case-insensitive. */
    email: text('email').notNull(),
    image: text('image'),
    /** The main role, which the specification's screens and calls show; always the one `capabilities` make. */
    role: userRole('role').notNull(),
    /** What the account may do (buy, sell, admin): routes and screens go by these (decision 37). */
    capabilities: userCapability('capabilities').array().notNull(),
    verified: boolean('verified').notNull().default(false),
    /** The owner proved the e-mail (a link we sent, or a provider that verified it). Not `verified`, which an admin grants. */
    emailVerified: boolean('email_verified').notNull().default(false),
    /** The account's own phone and town, which booking forms start from. */
    phone: text('phone'),
    location: text('location'),
    /** Null for accounts that sign in only through an OpenID provider. */
    passwordHash: text('password_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when an admin suspends the account: it cannot sign in, and its listings are hidden. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    /** The authenticator app's secret (base32) while its codes are the second sign-in step; null when off (decision 38). */
    totpSecret: text('totp_secret'),
    /** A secret shown for set-up, until a code made from it turns it on. */
    totpPendingSecret: text('totp_pending_secret'),
    /** The time step of the last code accepted: a code is never accepted twice. */
    totpLastStep: integer('totp_last_step'),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    index('users_role_created_idx').on(t.role, t.createdAt),
    // An admin's search of the accounts by a part of a name or e-mail.
    index('users_name_trigram_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    index('users_email_trigram_idx').using('gin', sql`${t.email} gin_trgm_ops`),
    // The admins, locked together when one loses the rights (there must stay one).
    index('users_admins_idx').on(t.id).where(sql`'admin' = any(${t.capabilities})`),
  ],
);

/** An account's identity at an OpenID Connect issuer: found by issuer and subject, never by e-mail. */
export const userIdentities = pgTable(
  'user_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index('user_identities_user_idx').on(t.userId)],
);

/**
 * Refresh tokens, stored as SHA-256 hashes. Each use replaces the token with a new one in the
 * same family; presenting a replaced token revokes the whole family.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The browser and address that signed in or renewed with this token: the account's list of sessions shows them. */
    userAgent: text('user_agent'),
    address: text('address'),
    /** The session's sign-in passed a second step (a code or a passkey): admin calls need it (decision 38). */
    secondStep: boolean('second_step').notNull().default(false),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId), index('refresh_tokens_user_idx').on(t.userId)],
);

/** Secrets generated once and shared by every app server that uses this database. */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const accountTokenPurposes = ['reset-password', 'verify-email', 'change-email'] as const;
export const accountTokenPurpose = pgEnum('account_token_purpose', accountTokenPurposes);

/**
 * The single-use tokens of links e-mailed about an account, stored as SHA-256 hashes only: the
 * database alone cannot open them. `email` is the address the link was sent to.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: accountTokenPurpose('purpose').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_tokens_user_idx').on(t.userId, t.purpose)],
);

/** A passkey (WebAuthn credential) an account signs in with; the public key only, never a secret. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The authenticator's credential id, base64url. */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    /** What the owner knows it by: the browser and system it was made on. */
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

export const passkeyChallengePurposes = ['register', 'sign-in'] as const;
export const passkeyChallengePurpose = pgEnum('passkey_challenge_purpose', passkeyChallengePurposes);

/**
 * The random challenges a passkey signs, kept in the database so that any app server can check the
 * answer: each is used once, and only within minutes. A registration's belongs to its account.
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: passkeyChallengePurpose('purpose').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('passkey_challenges_expires_idx').on(t.expiresAt)],
);

/** One-time codes that stand in for the authenticator app; only their hashes are kept (decision 38). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);
