import { z } from 'zod';
import { ownAccount, passkeyBody } from './accounts.ts';

/*
 * Leaving with one's data: the export of everything an account holds, and deleting the account
 * (decision 44). The words are in accountDataTexts; the schemas follow.
 */

/** The name a deleted account shows wherever it still appears: its messages, reviews and sales. */
export const DELETED_ACCOUNT_NAME = 'Deleted account';

/** How long a passkey confirmation of a deletion stays good: the challenge's own lifetime. */
export const DELETE_CONFIRMATION_MINUTES = 5;

export const accountDataTexts = {
  settings: {
    exportTitle: 'Your data',
    exportIntro: 'Download a file of everything your account holds: your details, listings, wishes, bookings, offers, messages, reviews, payments, earnings and notifications.',
    exportAction: 'Download my data',
    deleteTitle: 'Delete your account',
    deleteIntro:
      'Your listings are taken down, your bookings still in play are cancelled (paid ones are refunded), and your name, e-mail, phone and photo are removed. ' +
      'Payments, the books and reviews others wrote stay, as the law and the other side need them; your messages stay for the people you wrote to, shown as from "Deleted account".',
    deleteAction: 'Delete my account',
    dialogTitle: 'Delete your account for good?',
    dialogIntro: 'This cannot be undone. Confirm with your password or a passkey.',
    password: 'Your password',
    confirmWithPassword: 'Delete my account',
    confirmWithPasskey: 'Confirm with a passkey',
    cancel: 'Keep my account',
    /** Shown on the sign-in page after the deletion. */
    deleted: 'Your account is deleted and you are signed out. Thank you for using the marketplace.',
  },
  server: {
    deleted: 'Your account is deleted. You are signed out everywhere.',
    confirmNeeded: 'Confirm the deletion with your password or a passkey.',
    wrongPassword: 'Your password is not right, so your account was not deleted.',
    noPasswordYet: 'Your account has no password: confirm with a passkey, or choose a password through "Forgot password?" first.',
    passkeyOfAnother: 'This passkey belongs to another account, so your account was not deleted.',
    lastAdmin: 'You are the last admin, so your account cannot be deleted. Make another account an admin first.',
    /** Why a booking ended, for its buyer. */
    sellerLeft: 'The seller deleted their account.',
  },
} as const;

/** The export's file name: the marketplace's and the day's, never the person's name or e-mail. */
export const accountExportFileName = (when: Date) => `used-furniture-data-${when.toISOString().slice(0, 10)}.json`;

/** DELETE /api/me: the password, or a passkey's answer to sign-in options asked for just before. */
export const deleteAccountBody = z
  .object({
    password: z.string().min(1, 'password must not be empty').max(256, 'password is too long').optional(),
    passkey: passkeyBody.shape.response.optional(),
  })
  .refine((body) => body.password !== undefined || body.passkey !== undefined, accountDataTexts.server.confirmNeeded);
export type DeleteAccountBody = z.infer<typeof deleteAccountBody>;

const item = z.looseObject({ _id: z.string() });

/** GET /api/me/export: everything the account holds, as a JSON file (never a hash, token or secret). */
export const accountExport = z.object({
  _id: z.string(),
  exportedAt: z.string(),
  account: ownAccount.extend({ role: z.string(), capabilities: z.array(z.string()), verified: z.boolean(), createdAt: z.string() }),
  listings: z.array(item),
  wishes: z.array(item),
  bookings: z.array(item),
  sales: z.array(item),
  conversations: z.array(item),
  offers: z.array(item),
  messages: z.array(item),
  reviewsWritten: z.array(item),
  payments: z.array(item),
  earnings: z.array(item),
  payouts: z.array(item),
  notifications: z.array(item),
  notificationSettings: z.object({ email: z.boolean(), digest: z.boolean() }),
  passkeys: z.array(item),
  sessions: z.array(item),
});
export type AccountExport = z.infer<typeof accountExport>;
