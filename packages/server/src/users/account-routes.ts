import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountTexts, changeEmailBody, secondStepTexts, errorResponse, forgotPasswordBody, resetPasswordBody, successMessage, tokenResponse, verifyEmailBody } from '@furniture/contract';
import { and, eq } from 'drizzle-orm';
import { users } from '../db/schema/index.ts';
import { currentUser } from '../http/access.ts';
import { badRequest, conflict } from '../http/errors.ts';
import { enforceLimit, RATE_LIMITS } from '../http/rate-limit.ts';
import { queuePasswordResetMail, sendSecurityMail, sendVerificationMail } from './account-mail.ts';
import { useAccountToken, useUpAccountTokens } from './account-tokens.ts';
import { hashPassword } from './passwords.ts';
import { findUserByEmail } from './user-repository.ts';
import { endAllSessions } from './refresh-tokens.ts';
import { turnOffTotp } from './second-step.ts';
import { signIn } from './sessions.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 429: errorResponse };
const { server, mail } = accountTexts;

/** Forgetting a password and verifying an e-mail: the links the marketplace e-mails about an account. */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/forgot-password',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'E-mail a link to choose a new password',
        description:
          'Answers the same, in the same time, for any address: only an address with an account gets the e-mail. The link works once, ' +
          'for one hour. Limited per e-mail and per address.',
        body: forgotPasswordBody,
        response: { 200: successMessage, 400: errorResponse, 429: errorResponse },
      },
    },
    async (request) => {
      const { email } = request.body;
      await enforceLimit(app.db, { limit: RATE_LIMITS.resetLinksPerAddress, subject: request.ip });
      await enforceLimit(app.db, { limit: RATE_LIMITS.resetLinksPerEmail, subject: email });
      await queuePasswordResetMail(app.db, email);
      return { success: true, message: server.resetLinkSent };
    },
  );

  app.post(
    '/auth/reset-password',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the link’s token, end every session, and sign in',
        description: 'The sign-up rules apply to the password. A used, expired or unknown token answers 400 saying which.',
        body: resetPasswordBody,
        response: { 200: tokenResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { token, password } = request.body;
      const userId = await app.db.transaction(async (tx) => {
        const link = await useAccountToken(tx, 'reset-password', token);
        // Hashed once the token is good: forged tokens cost no hashing.
        const passwordHash = await hashPassword(password);
        // The link was sent to the account's e-mail; once the e-mail changed it no longer proves anything.
        const [changed] = await tx
          .update(users)
          .set({ passwordHash, emailVerified: true })
          .where(and(eq(users.id, link.userId), eq(users.email, link.email)))
          .returning({ id: users.id, name: users.name, email: users.email });
        if (!changed) throw badRequest(server.linkInvalid);
        await useUpAccountTokens(tx, changed.id, 'reset-password');
        await sendSecurityMail(tx, app.config.publicUrl, changed, { subject: mail.passwordChangedSubject, paragraphs: mail.passwordChangedParagraphs(changed.name) });
        await endAllSessions(tx, changed.id);
        // The e-mail link stands in for a lost phone: the authenticator app is off, to be set up again.
        if (await turnOffTotp(tx, changed.id)) {
          await sendSecurityMail(tx, app.config.publicUrl, changed, { subject: secondStepTexts.mail.turnedOffSubject, paragraphs: secondStepTexts.mail.turnedOffParagraphs(changed.name) });
        }
        return changed.id;
      });
      const accessToken = await signIn(app, reply, userId);
      return { success: true as const, token: accessToken, message: server.passwordReset };
    },
  );

  app.post(
    '/auth/verify-email',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Verify the account’s e-mail with the link’s token',
        description: 'Works without signing in, as the link may be opened on another device.',
        body: verifyEmailBody,
        response: { 200: successMessage, ...errors },
      },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const link = await useAccountToken(tx, 'verify-email', request.body.token);
        const [verified] = await tx
          .update(users)
          .set({ emailVerified: true })
          .where(and(eq(users.id, link.userId), eq(users.email, link.email)))
          .returning({ id: users.id });
        if (!verified) throw badRequest(server.linkInvalid);
      });
      return { success: true, message: server.emailVerified };
    },
  );

  app.post(
    '/auth/change-email',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Make the new e-mail the account’s, with the token of the link sent to it',
        description:
          'Works without signing in, as the link may be opened on another device. The new e-mail counts as verified; the former one is told. ' +
          'Answers 409 if another account took the e-mail meanwhile.',
        body: changeEmailBody,
        response: { 200: successMessage, ...errors },
      },
    },
    async (request) => {
      await app.db.transaction(async (tx) => {
        const link = await useAccountToken(tx, 'change-email', request.body.token);
        const [user] = await tx.select().from(users).where(eq(users.id, link.userId)).for('update');
        if (!user) throw badRequest(server.linkInvalid);
        const holder = await findUserByEmail(tx, link.email);
        if (holder && holder.id !== user.id) throw conflict(server.emailTakenByOther);
        await tx.update(users).set({ email: link.email, emailVerified: true }).where(eq(users.id, user.id));
        await useUpAccountTokens(tx, user.id, 'change-email');
        await sendSecurityMail(tx, app.config.publicUrl, user, { subject: mail.emailChangedSubject, paragraphs: mail.emailChangedParagraphs(user.name, link.email) });
      });
      return { success: true, message: server.emailChanged };
    },
  );

  app.post(
    '/auth/verify-email/send',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['auth'],
        summary: 'E-mail the signed-in account a new link to verify its e-mail',
        response: { 200: successMessage, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (user.emailVerified) return { success: true, message: server.alreadyVerified };
      await enforceLimit(app.db, { limit: RATE_LIMITS.verifyLinksPerAccount, subject: user.id });
      await app.db.transaction((tx) => sendVerificationMail(tx, app.config.publicUrl, user));
      return { success: true, message: server.verifyLinkSent };
    },
  );
};
