import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountSession, accountTexts, emailChangeBody, createdOf, dataOf, errorResponse, idParams, listOf, ownAccount, passwordChangeBody, profileChangeBody, successMessage } from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema/index.ts';
import { currentUser } from '../http/access.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { sendEmailChangeMail, sendSecurityMail } from './account-mail.ts';
import { endOtherSessions, endSessionOf, listOpenSessions } from './account-sessions.ts';
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from './login-throttle.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { describeUserAgent } from './user-agents.ts';
import { findUserByEmail, toOwnAccount } from './user-repository.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 429: errorResponse };
const { server, mail } = accountTexts;

/** The signed-in account's own details, password and sessions. */
export const meRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['me'], summary: 'The signed-in account’s own details', response: { 200: dataOf(ownAccount), ...errors } },
    },
    async (request) => ({ success: true as const, data: toOwnAccount(currentUser(request)) }),
  );

  app.patch(
    '/me',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['me'],
        summary: 'Change the signed-in account’s name, photo, phone or town',
        description: 'Only the fields sent change; null clears the phone or the town.',
        body: profileChangeBody,
        response: { 200: createdOf(ownAccount), ...errors },
      },
    },
    async (request) => {
      const { name, image, phone, location } = request.body;
      const [changed] = await app.db
        .update(users)
        .set({ name, image, phone, location })
        .where(eq(users.id, currentUser(request).id))
        .returning();
      return { success: true as const, data: toOwnAccount(changed!), message: server.profileSaved };
    },
  );

  app.post(
    '/me/password',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['me'],
        summary: 'Change the password, proving the current one; every other session ends',
        description: 'Wrong current passwords count toward the same limit as failed sign-ins. An account without a password sets one through a reset link.',
        body: passwordChangeBody,
        response: { 200: successMessage, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { currentPassword, newPassword } = request.body;
      await assertLoginAllowed(app.db, user.email, request.ip);
      if (!(await verifyPassword(user.passwordHash, currentPassword))) {
        await recordLoginFailure(app.db, user.email, request.ip);
        throw badRequest(server.wrongCurrentPassword);
      }
      await clearLoginFailures(app.db, user.email, request.ip);
      const passwordHash = await hashPassword(newPassword);
      await app.db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
        await endOtherSessions(tx, user.id, request.sessionId);
        await sendSecurityMail(tx, app.config.publicUrl, user, { subject: mail.passwordChangedSubject, paragraphs: mail.passwordChangedParagraphs(user.name) });
      });
      return { success: true, message: server.passwordChanged };
    },
  );

  app.post(
    '/me/email',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['me'],
        summary: 'Ask to change the e-mail: a link to confirm it goes to the new address, a notice to the current one',
        description:
          'The e-mail changes only when the link is opened (POST /api/auth/change-email); it works once, for one hour. ' +
          'An account with a password proves it, and wrong ones count toward the same limit as failed sign-ins. An e-mail another account uses answers 409.',
        body: emailChangeBody,
        response: { 200: successMessage, ...errors, 409: errorResponse },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { email, currentPassword } = request.body;
      if (email === user.email.toLowerCase()) throw badRequest(server.sameEmail);
      if (user.passwordHash !== null) {
        await assertLoginAllowed(app.db, user.email, request.ip);
        if (!(await verifyPassword(user.passwordHash, currentPassword ?? ''))) {
          await recordLoginFailure(app.db, user.email, request.ip);
          throw badRequest(server.wrongCurrentPassword);
        }
      }
      if (await findUserByEmail(app.db, email)) throw conflict(server.emailTakenByOther);
      await app.db.transaction((tx) => sendEmailChangeMail(tx, app.config.publicUrl, user, email));
      return { success: true, message: server.emailLinkSent(email) };
    },
  );

  app.get(
    '/me/sessions',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['me'],
        summary: 'Where the account is signed in: browser, address and last use of each open session',
        response: { 200: listOf(accountSession), ...errors },
      },
    },
    async (request) => {
      const sessions = await listOpenSessions(app.db, currentUser(request).id);
      return {
        success: true as const,
        data: sessions.map((session) => ({
          _id: session.familyId,
          device: describeUserAgent(session.userAgent),
          address: session.address,
          lastSeenAt: session.lastSeenAt.toISOString(),
          current: session.familyId === request.sessionId,
        })),
      };
    },
  );

  app.delete(
    '/me/sessions/:id',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['me'], summary: 'Sign out one session of the account', params: idParams, response: { 200: successMessage, ...errors } },
    },
    async (request) => {
      if (!(await endSessionOf(app.db, currentUser(request).id, request.params.id))) throw notFound(server.noSession);
      return { success: true, message: server.sessionEnded };
    },
  );

  app.delete(
    '/me/sessions',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['me'], summary: 'Sign out every session of the account but this one', response: { 200: successMessage, ...errors } },
    },
    async (request) => {
      await endOtherSessions(app.db, currentUser(request).id, request.sessionId);
      return { success: true, message: server.otherSessionsEnded };
    },
  );
};
