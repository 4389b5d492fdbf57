import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { deleteBookingsOfBuyer } from '../bookings/booking-repository.ts';
import { deleteProductsOfSeller } from '../products/product-repository.ts';
import { grantCapability, type UserRow } from '../users/user-repository.ts';
import { deleteWishesOfBuyer } from '../wishes/wish-repository.ts';

/** Marks an account verified. A seller's products read the flag from the account, so they show it at once. */
export async function verifyUser(db: Executor, userId: string): Promise<void> {
  await db.update(users).set({ verified: true }).where(eq(users.id, userId));
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
