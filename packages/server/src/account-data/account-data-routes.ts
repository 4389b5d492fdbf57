import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { accountDataTexts, accountExport, accountExportFileName, deleteAccountBody, errorResponse, successMessage, type DeleteAccountBody } from '@furniture/contract';
import { recordAdminAct } from '../audit/audit-log.ts';
import type { Executor } from '../db/client.ts';
import { currentUser, type SignedInUser } from '../http/access.ts';
import { forbidden } from '../http/errors.ts';
import type { RefundPayment } from '../sales/sale-transitions.ts';
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from '../users/login-throttle.ts';
import { checkPasskeySignIn, relyingPartyOf, type RelyingParty } from '../users/passkeys.ts';
import { verifyPassword } from '../users/passwords.ts';
import { clearSessionCookie } from '../users/sessions.ts';
import { deleteAccount } from './account-deletion.ts';
import { exportAccount } from './account-export.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse, 429: errorResponse };
const { server } = accountDataTexts;

/**
 * The password proves the owner outside the deletion's transaction (hashing is slow, and wrong
 * ones count as failed sign-ins); a passkey's answer is checked inside it, its challenge used up
 * only if the deletion commits.
 */
async function assertPassword(db: Executor, user: SignedInUser, password: string, address: string) {
  if (user.passwordHash === null) throw forbidden(server.noPasswordYet);
  await assertLoginAllowed(db, user.email, address);
  if (!(await verifyPassword(user.passwordHash, password))) {
    await recordLoginFailure(db, user.email, address);
    throw forbidden(server.wrongPassword);
  }
  await clearLoginFailures(db, user.email, address);
}

/** The passkey sign-in check, for a passkey that must be one of this account's. */
async function assertOwnPasskey(tx: Executor, rp: RelyingParty, userId: string, passkey: NonNullable<DeleteAccountBody['passkey']>) {
  const owner = await checkPasskeySignIn(tx, rp, passkey as unknown as AuthenticationResponseJSON);
  if (owner !== userId) throw forbidden(server.passkeyOfAnother);
}

/** Leaving with one's data: the export of the account, and deleting it (decision 44). */
export const accountDataRoutes: FastifyPluginAsyncZod<{ refundPayment: RefundPayment }> = async (app, { refundPayment }) => {
  const rp = relyingPartyOf(app.config.publicUrl);

  app.get(
    '/me/export',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['me'],
        summary: 'Download everything the account holds, as a JSON file',
        description:
          'The details, listings with their photos’ URLs, wishes, bookings and sales, conversations with their offers and messages, reviews written, payments, ' +
          'earnings entries and payouts, notifications, passkeys’ names and open sessions. Never a password hash, token, secret or passkey key.',
        response: { 200: accountExport, ...errors },
      },
    },
    async (request, reply) => {
      const exported = await exportAccount(app.db, currentUser(request));
      void reply.header('content-disposition', `attachment; filename="${accountExportFileName(new Date(exported.exportedAt))}"`).header('cache-control', 'no-store');
      return exported;
    },
  );

  app.delete(
    '/me',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['me'],
        summary: 'Delete the signed-in account, confirmed with its password or a passkey',
        description:
          'A passkey confirms with its answer to POST /api/auth/passkey/options, usable once within minutes. In one transaction: every session ends on every server, ' +
          'bookings still in play are cancelled on both sides (paid ones not yet handed over are refunded to the buyer), listings are withdrawn, open offers close, ' +
          'and the name, e-mail, phone, photo, password, passkeys and sign-in links are removed; the e-mail can register again. Payments, the ledger, the audit ' +
          'log, messages and reviews stay, shown as from "Deleted account" (decision 44). A wrong password answers 403, and counts as a failed sign-in; the last admin 409.',
        body: deleteAccountBody,
        response: { 200: successMessage, ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { password, passkey } = request.body;
      if (password !== undefined) await assertPassword(app.db, user, password, request.ip);
      const refunds = await app.db.transaction(async (tx) => {
        if (password === undefined && passkey) await assertOwnPasskey(tx, rp, user.id, passkey);
        const owed = await deleteAccount(tx, user.id);
        await recordAdminAct(tx, request, { action: 'account.delete', targetType: 'user', targetId: user.id, targetLabel: user.email });
        return owed;
      });
      for (const payment of refunds) {
        // The refund owed is recorded; when the provider fails now, the refund retry makes it (decision 7).
        await refundPayment(payment).catch((error: unknown) =>
          request.log.error({ err: error, paymentId: payment.id }, 'refund of a deleted account’s sale failed; the refund retry makes it'),
        );
      }
      clearSessionCookie(app, reply);
      return { success: true, message: server.deleted };
    },
  );
};
