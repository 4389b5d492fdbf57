import { hash, verify } from '@node-rs/argon2';

/** argon2id above OWASP's minimum (m=19 MiB, t=2, p=1). */
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, ARGON2ID);

/** A hash of a random password, verified against when the account does not exist so timing reveals nothing. */
const decoyHash = hash('decoy-password-for-unknown-accounts', ARGON2ID);

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
