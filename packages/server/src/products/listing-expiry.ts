import { LISTING_EXPIRY_REMINDER_DAYS } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { cancelJob, defineTask, enqueueJob } from '../jobs/job-queue.ts';

/**
 * A listing's end: one expiry job and one reminder job per listing in the job queue (decision 16),
 * each under the listing's own key, so scheduling again (an edit, a renewal) moves them. The
 * payload carries the expiry the job was scheduled for; a job finding another expiry on the row
 * (renewed since) does nothing.
 */
interface ListingExpiryPayload {
  productId: string;
  /** ISO time the listing was to expire when the job was scheduled. */
  expiresAt: string;
}

export const expireListingTask = defineTask<ListingExpiryPayload>('sales.expire-listing');
export const remindListingExpiryTask = defineTask<ListingExpiryPayload>('sales.remind-listing-expiry');

const expiryKey = (productId: string) => `listing-expiry:${productId}`;
const reminderKey = (productId: string) => `listing-expiry-reminder:${productId}`;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Schedules (or moves) the listing's expiry and the reminder before it. Call in the transaction of the change. */
export async function scheduleListingExpiry(tx: Executor, productId: string, expiresAt: Date) {
  const payload = { productId, expiresAt: expiresAt.toISOString() };
  await enqueueJob(tx, expireListingTask, payload, { runAt: expiresAt, key: expiryKey(productId) });
  const remindAt = new Date(expiresAt.getTime() - LISTING_EXPIRY_REMINDER_DAYS * DAY_MS);
  await enqueueJob(tx, remindListingExpiryTask, payload, { runAt: remindAt, key: reminderKey(productId) });
}

/** A listing that left the market (sold, withdrawn) has nothing left to expire. */
export async function cancelListingExpiry(tx: Executor, productId: string) {
  await cancelJob(tx, expiryKey(productId));
  await cancelJob(tx, reminderKey(productId));
}
