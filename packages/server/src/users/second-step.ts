import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import { RECOVERY_CODE_COUNT, secondStepTexts } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { passkeys, recoveryCodes, refreshTokens, users } from '../db/schema/index.ts';
import { badRequest, conflict, unauthorized } from '../http/errors.ts';

const { server } = secondStepTexts;

/** The name authenticator apps show beside the account. */
const ISSUER = 'Used Furniture';
/** How long the proof that the password was right waits for the second step. */
const CHALLENGE_SECONDS = 5 * 60;
/** A code of the step before or after the current one is accepted too: phones' clocks drift. */
const TOTP_PERIOD_SECONDS = 30;
const TOTP_TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;

/** Recovery codes are random, so one SHA-256 hash each keeps them unusable and found by equality, never compared as text. */
const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url');
/** People type recovery codes with or without the dash, in either case. */
const normalRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/** Whether the account has a second step: the authenticator app on, or a passkey. */
export async function hasSecondStep(db: Executor, userId: string): Promise<boolean> {
  const [row] = await db
    .select({
      has: sql<boolean>`${users.totpSecret} is not null or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return Boolean(row?.has);
}

/** A new secret to add to the authenticator app, kept until a code made from it turns the app on. */
export async function startTotpEnrolment(db: Executor, user: { id: string; email: string; totpSecret: string | null }) {
  if (user.totpSecret) throw conflict(server.alreadyOn);
  const secret = generateSecret();
  await db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, user.id));
  return { secret, uri: generateURI({ issuer: ISSUER, label: user.email, secret }) };
}

/**
 * The time step of a code the secret makes now (within a step either way), later than the last
 * step accepted; undefined for a wrong or replayed code. otplib compares codes in constant time.
 */
async function acceptedStep(secret: string, code: string, lastStep: number | null): Promise<number | undefined> {
  const result = await verify({
    secret,
    token: code,
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
  }).catch(() => undefined);
  return result?.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/**
 * Uses up a code of the account's authenticator app: the step it was made for is remembered in the
 * same statement that checks it is later than the last one, so two requests with one code cannot
 * both pass. Throws 401 for a wrong or used code.
 */
export async function useTotpCode(db: Executor, user: { id: string; totpSecret: string | null; totpLastStep: number | null }, code: string): Promise<void> {
  if (!user.totpSecret) throw badRequest(server.notOn);
  const step = await acceptedStep(user.totpSecret, code, user.totpLastStep);
  const [used] =
    step === undefined
      ? []
      : await db
          .update(users)
          .set({ totpLastStep: step })
          .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
          .returning({ id: users.id });
  if (!used) throw unauthorized(server.wrongCode);
}

/** Turns the app on with a code made from the pending secret; answers the new recovery codes, shown once. */
export async function confirmTotp(db: Executor, userId: string, code: string): Promise<string[]> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).for('update');
  if (user?.totpSecret) throw conflict(server.alreadyOn);
  if (!user?.totpPendingSecret) throw badRequest(server.notStarted);
  const step = await acceptedStep(user.totpPendingSecret, code, null);
  if (step === undefined) throw badRequest(server.wrongCode);
  await db.update(users).set({ totpSecret: user.totpPendingSecret, totpPendingSecret: null, totpLastStep: step }).where(eq(users.id, userId));
  return replaceRecoveryCodes(db, userId);
}

async function replaceRecoveryCodes(db: Executor, userId: string): Promise<string[]> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const text = randomBytes(5).toString('hex');
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
  await db.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashOf(normalRecoveryCode(code)) })));
  return codes;
}

/** Uses up one recovery code of the account; answers how many are left. Throws 401 for a wrong or used one. */
export async function useRecoveryCode(db: Executor, userId: string, code: string): Promise<number> {
  const [used] = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashOf(normalRecoveryCode(code))), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  if (!used) throw unauthorized(server.wrongRecoveryCode);
  return unusedRecoveryCodes(db, userId);
}

export async function unusedRecoveryCodes(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.count ?? 0;
}

/**
 * Turns the authenticator app off and forgets its recovery codes; answers whether it was on. The
 * account's sessions no longer count as signed in with a second step (an admin with a passkey
 * signs in again with it); the change to the account tells every server to look again.
 */
export async function turnOffTotp(db: Executor, userId: string): Promise<boolean> {
  const changed = await db
    .update(users)
    .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null })
    .where(and(eq(users.id, userId), isNotNull(users.totpSecret)))
    .returning({ id: users.id });
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.update(refreshTokens).set({ secondStep: false }).where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.secondStep, true)));
  return changed.length > 0;
}

/**
 * The proof, between the password and the code, that the password was right: the account and an
 * expiry, signed with the server's key (`keyedHash`). Nothing is stored; it is compared in constant
 * time, and it only lets its holder try codes, which are limited per account.
 */
export async function issueChallenge(keyedHash: (text: string) => Promise<string>, userId: string): Promise<string> {
  const claim = `${userId}.${Math.floor(Date.now() / 1000) + CHALLENGE_SECONDS}`;
  return `${claim}.${await keyedHash(`second-step:${claim}`)}`;
}

/** The account of a valid, unexpired challenge; throws 401 otherwise. */
export async function checkChallenge(keyedHash: (text: string) => Promise<string>, challenge: string): Promise<string> {
  const [userId, expires, signature] = challenge.split('.');
  if (!userId || !expires || !signature) throw unauthorized(server.signInExpired);
  const expected = Buffer.from(await keyedHash(`second-step:${userId}.${expires}`));
  const given = Buffer.from(signature);
  const genuine = given.length === expected.length && timingSafeEqual(given, expected);
  if (!genuine || Number(expires) * 1000 <= Date.now()) throw unauthorized(server.signInExpired);
  return userId;
}
