import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  dataOf,
  errorResponse,
  messages,
  recoveryCodesResult,
  secondStepBody,
  secondStepOffBody,
  secondStepStatus,
  secondStepTexts,
  successMessage,
  tokenResponse,
  totpConfirmBody,
  totpEnrolment,
  type SecondStepStatus,
} from '@furniture/contract';
import { eq } from 'drizzle-orm';
import { refreshTokens } from '../db/schema/index.ts';
import { currentUser } from '../http/access.ts';
import { unauthorized } from '../http/errors.ts';
import { assertUnderLimits, countTowardLimits, RATE_LIMITS, type LimitedBy } from '../http/rate-limit.ts';
import { sendSecurityMail } from './account-mail.ts';
import { verifyPassword } from './passwords.ts';
import { checkChallenge, confirmTotp, hasSecondStep, startTotpEnrolment, turnOffTotp, unusedRecoveryCodes, useRecoveryCode, useTotpCode } from './second-step.ts';
import { signIn } from './sessions.ts';
import { findUserById, type UserRow } from './user-repository.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse, 429: errorResponse };
const { server, mail } = secondStepTexts;

/**
 * Runs a check of a code the person typed, counting a failed one toward the account's limit: past
 * it, no code is checked until the window has passed, right or wrong.
 */
async function limitedCheck<T>(app: FastifyInstance, userId: string, check: () => Promise<T>): Promise<T> {
  const counter: LimitedBy = { limit: RATE_LIMITS.secondStepFailuresPerAccount, subject: userId };
  await assertUnderLimits(app.db, [counter]);
  try {
    return await check();
  } catch (error) {
    await countTowardLimits(app.db, [counter]);
    throw error;
  }
}

const notify = (app: FastifyInstance, user: UserRow, subject: string, paragraphs: readonly string[]) =>
  sendSecurityMail(app.db, app.config.publicUrl, user, { subject, paragraphs });

/** Two-step sign-in: the authenticator app in Settings, and the second step of a password sign-in (decision 38). */
export const secondStepRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me/second-step',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['me'], summary: 'Whether two-step sign-in is on, and how many recovery codes are left', response: { 200: dataOf(secondStepStatus), ...errors } },
    },
    async (request) => {
      const user = currentUser(request);
      const checked = app.config.adminSecondStep === 'required' && user.capabilities.includes('admin') && !request.secondStep;
      const adminNeeds = !checked ? 'nothing' : (await hasSecondStep(app.db, user.id)) ? 'sign-in-again' : 'set-up';
      return {
        success: true as const,
        data: { _id: user.id, authenticatorApp: user.totpSecret !== null, recoveryCodesLeft: await unusedRecoveryCodes(app.db, user.id), adminNeeds: adminNeeds as SecondStepStatus['adminNeeds'] },
      };
    },
  );

  app.post(
    '/me/second-step/totp',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['me'],
        summary: 'Start setting up an authenticator app: a new secret and its otpauth link',
        description: 'Nothing changes at sign-in until a code made from the secret confirms it. Answers 409 while an app is on.',
        response: { 200: dataOf(totpEnrolment), ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const enrolment = await startTotpEnrolment(app.db, user);
      return { success: true as const, data: { _id: user.id, ...enrolment }, message: server.started };
    },
  );

  app.post(
    '/me/second-step/totp/confirm',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['me'],
        summary: 'Turn on the authenticator app with a code it made; answers recovery codes, shown once',
        description: 'The session counts as signed in with the second step. The account is e-mailed about the change.',
        body: totpConfirmBody,
        response: { 200: dataOf(recoveryCodesResult).extend({ message: successMessage.shape.message }), ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const recoveryCodes = await app.db.transaction(async (tx) => {
        const codes = await confirmTotp(tx, user.id, request.body.code);
        // The code just typed is the second step: the session may go on to the admin pages.
        if (request.sessionId) await tx.update(refreshTokens).set({ secondStep: true }).where(eq(refreshTokens.familyId, request.sessionId));
        await notify(app, user, mail.turnedOnSubject, mail.turnedOnParagraphs(user.name));
        return codes;
      });
      return { success: true as const, data: { _id: user.id, recoveryCodes }, message: server.turnedOn };
    },
  );

  app.delete(
    '/me/second-step',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['me'],
        summary: 'Turn off the authenticator app and its recovery codes',
        description: 'The password or a current code proves the owner; wrong ones are limited per account. The account is e-mailed about the change.',
        body: secondStepOffBody,
        response: { 200: successMessage, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { password, code } = request.body;
      await limitedCheck(app, user.id, async () => {
        if (code !== undefined) return useTotpCode(app.db, user, code);
        if (!(await verifyPassword(user.passwordHash, password!))) throw unauthorized(server.wrongProof);
      });
      const turnedOff = await app.db.transaction(async (tx) => {
        if (!(await turnOffTotp(tx, user.id))) return false;
        await notify(app, user, mail.turnedOffSubject, mail.turnedOffParagraphs(user.name));
        return true;
      });
      return { success: true, message: turnedOff ? server.turnedOff : server.notOn };
    },
  );

  app.post(
    '/auth/second-step',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Finish a password sign-in with a code from the authenticator app or a recovery code',
        description:
          'The challenge comes from POST /api/auth/login and is valid for minutes. A code is accepted once; a recovery code once. ' +
          'Wrong codes are limited per account. Using a recovery code is e-mailed to the account.',
        body: secondStepBody,
        response: { 200: tokenResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { challenge, code, recoveryCode } = request.body;
      const userId = await checkChallenge((text) => app.accessTokens.keyedHash(text), challenge);
      const user = await findUserById(app.db, userId);
      if (!user?.totpSecret) throw unauthorized(server.signInExpired);
      await limitedCheck(app, user.id, async () => {
        if (code !== undefined) return useTotpCode(app.db, user, code);
        const left = await useRecoveryCode(app.db, user.id, recoveryCode!);
        await notify(app, user, mail.recoveryCodeUsedSubject, mail.recoveryCodeUsedParagraphs(user.name, left));
      });
      const token = await signIn(app, reply, user.id, { secondStep: true });
      return { success: true as const, token, message: messages.signInSuccess };
    },
  );
};
