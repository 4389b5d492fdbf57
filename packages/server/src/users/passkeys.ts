import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import { accountTexts } from '@furniture/contract';
import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { passkeyChallenges, passkeys, type passkeyChallengePurposes } from '../db/schema/index.ts';
import { badRequest, conflict, unauthorized } from '../http/errors.ts';
import type { UserRow } from './user-repository.ts';

const { server } = accountTexts;
type ChallengePurpose = (typeof passkeyChallengePurposes)[number];

/** How long the browser's passkey window, and so its challenge, stays open. */
const CHALLENGE_MINUTES = 5;
const RP_NAME = 'Used Furniture';

/** Passkeys belong to the site people open: its host is the relying party, its origin the only one accepted. */
export interface RelyingParty {
  id: string;
  origin: string;
}
export const relyingPartyOf = (publicUrl: string): RelyingParty => ({ id: new URL(publicUrl).hostname, origin: new URL(publicUrl).origin });

async function storeChallenge(db: Executor, challenge: string, purpose: ChallengePurpose, userId: string | null) {
  // Expired challenges go as new ones come, so the table holds only minutes' worth.
  await db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, sql`now()`));
  await db.insert(passkeyChallenges).values({
    challenge,
    purpose,
    userId,
    expiresAt: sql`now() + make_interval(mins => ${CHALLENGE_MINUTES})`,
  });
}

/**
 * Uses up the challenge the passkey signed, read from its client data: it must be one we issued for
 * this purpose (and this account), unused and unexpired. Found by equality on the whole random value.
 */
async function claimChallenge(db: Executor, clientDataJSON: string, purpose: ChallengePurpose, userId: string | null): Promise<string> {
  let challenge: string;
  try {
    challenge = decodeClientDataJSON(clientDataJSON).challenge;
  } catch {
    throw badRequest(server.passkeyNotChecked);
  }
  const [claimed] = await db
    .delete(passkeyChallenges)
    .where(
      and(
        eq(passkeyChallenges.challenge, challenge),
        eq(passkeyChallenges.purpose, purpose),
        userId ? eq(passkeyChallenges.userId, userId) : isNull(passkeyChallenges.userId),
      ),
    )
    .returning({ expired: sql<boolean>`${passkeyChallenges.expiresAt} <= now()` });
  if (!claimed || claimed.expired) throw badRequest(server.passkeyRequestExpired);
  return challenge;
}

export function listPasskeys(db: Executor, userId: string) {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
}

export async function removePasskey(db: Executor, userId: string, id: string): Promise<boolean> {
  const removed = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return removed.length > 0;
}

/** Options to make a new passkey for the account; it must be one the device keeps and unlocks with its owner's lock. */
export async function registrationOptions(db: Executor, rp: RelyingParty, user: UserRow): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await listPasskeys(db, user.id);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name,
    userID: isoBase64URL.toBuffer(isoBase64URL.fromUTF8String(user.id)),
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await storeChallenge(db, options.challenge, 'register', user.id);
  return options;
}

/** Checks the new passkey's answer to the account's challenge and keeps its public key. */
export async function addPasskey(db: Executor, rp: RelyingParty, userId: string, response: RegistrationResponseJSON, name: string) {
  const challenge = await claimChallenge(db, response.response.clientDataJSON, 'register', userId);
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
  }).catch(() => ({ verified: false as const }));
  if (!verification.verified) throw badRequest(server.passkeyNotChecked);
  const { credential } = verification.registrationInfo;
  const [added] = await db
    .insert(passkeys)
    .values({
      userId,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name,
    })
    .onConflictDoNothing({ target: passkeys.credentialId })
    .returning();
  if (!added) throw conflict(server.passkeyTaken);
  return added;
}

/** Options to sign in with any passkey this site made: the device offers its own. */
export async function signInOptions(db: Executor, rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required' });
  await storeChallenge(db, options.challenge, 'sign-in', null);
  return options;
}

/** Checks a passkey's answer to a sign-in challenge; answers whose account it opens. */
export async function checkPasskeySignIn(db: Executor, rp: RelyingParty, response: AuthenticationResponseJSON): Promise<string> {
  const challenge = await claimChallenge(db, response.response.clientDataJSON, 'sign-in', null);
  const [passkey] = await db.select().from(passkeys).where(eq(passkeys.credentialId, response.id));
  if (!passkey) throw unauthorized(server.passkeyUnknown);
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
    requireUserVerification: true,
  }).catch(() => ({ verified: false as const }));
  if (!verification.verified) throw unauthorized(server.passkeyNotChecked);
  await db
    .update(passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: sql`now()` })
    .where(eq(passkeys.id, passkey.id));
  return passkey.userId;
}
