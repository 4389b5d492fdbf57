import { asc, eq, sql } from 'drizzle-orm';
import { mainRole } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { deleteBookingsOfBuyer } from '../bookings/booking-repository.ts';
import { deleteProductsOfSeller } from '../products/product-repository.ts';
import { capabilitiesOf, grantCapability, type UserRow } from '../users/user-repository.ts';
import { deleteWishesOfBuyer } from '../wishes/wish-repository.ts';

/** Marks an account verified. A seller's products read the flag from the account, so they show it at once. */
export async function verifyUser(db: Executor, userId: string): Promise<void> {
  await db.update(users).set({ verified: true }).where(eq(users.id, userId));
}

/** Takes back an account's verification; a seller's products lose the tick at once. */
export async function unverifyUser(db: Executor, userId: string): Promise<void> {
  await db.update(users).set({ verified: false }).where(eq(users.id, userId));
}

/** What an admin's removal of an account's admin rights came to. */
export type AdminRemoval = 'removed' | 'not-admin' | 'last-admin' | 'actor-not-admin';

/**
 * Takes the admin capability from an account, which keeps buying and selling as before (one left
 * with nothing can buy, as a new account can). Every admin's row is locked, in one order, before
 * counting: two admins removing each other at once go one after the other, and the second finds
 * the first's change (the second's own rights already gone), so one admin always stays.
 */
export async function removeAdmin(db: Executor, actorId: string, userId: string): Promise<AdminRemoval> {
  return db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: users.id, capabilities: users.capabilities })
      .from(users)
      .where(sql`'admin' = any(${users.capabilities})`)
      .orderBy(asc(users.id))
      .for('update');
    if (!admins.some((admin) => admin.id === actorId)) return 'actor-not-admin';
    const target = admins.find((admin) => admin.id === userId);
    if (!target) return 'not-admin';
    if (admins.length === 1) return 'last-admin';
    const kept = target.capabilities.filter((capability) => capability !== 'admin');
    const held = kept.length > 0 ? kept : capabilitiesOf('buyer');
    await tx.update(users).set({ capabilities: held, role: mainRole(held) }).where(eq(users.id, userId));
    return 'removed';
  });
}

/** Makes an account an admin; it keeps buying and selling as before, so its own orders and listings stay reachable. */
export async function makeAdmin(db: Executor, userId: string): Promise<void> {
  await grantCapability(db, userId, 'admin');
}

/**
 * Deletes an account and everything that hangs on it, in one transaction: the user's wishes and
 * bookings, and a seller's products with their wishes and unpaid bookings. Paid bookings of other
 * buyers stay, and payment records are never deleted (their references are cleared). Given an open
 * transaction, it runs inside it (as a savepoint), so the caller's audit entry commits with it.
 */
export async function deleteUserWithDependents(db: Executor, user: Pick<UserRow, 'id'>): Promise<number> {
  return db.transaction(async (tx) => {
    // Locked first: nothing can be listed, wished or booked for this account until it is gone.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    await deleteWishesOfBuyer(tx, user.id);
    await deleteBookingsOfBuyer(tx, user.id);
    await deleteProductsOfSeller(tx, user.id);
    const deleted = await tx.delete(users).where(eq(users.id, user.id)).returning({ id: users.id });
    return deleted.length;
  });
}
