import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { accountPasskey, accountTexts, createdOf, dataOf, errorResponse, idParams, listOf, messages, passkeyBody, passkeyOptions, successMessage, tokenResponse } from '@furniture/contract';
import { currentUser } from '../http/access.ts';
import { notFound } from '../http/errors.ts';
import { enforceLimit, RATE_LIMITS } from '../http/rate-limit.ts';
import { sendSecurityMail } from './account-mail.ts';
import { addPasskey, checkPasskeySignIn, listPasskeys, registrationOptions, relyingPartyOf, removePasskey, signInOptions } from './passkeys.ts';
import { signIn } from './sessions.ts';
import { describeUserAgent } from './user-agents.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse, 429: errorResponse };
const { server, mail } = accountTexts;

const toAccountPasskey = (passkey: Awaited<ReturnType<typeof listPasskeys>>[number]) => ({
  _id: passkey.id,
  name: passkey.name,
  createdAt: passkey.createdAt.toISOString(),
  lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
});

/** Passkeys: adding and removing them in Settings, and signing in with one. */
export const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const rp = relyingPartyOf(app.config.publicUrl);

  app.get(
    '/me/passkeys',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['me'], summary: 'The account’s passkeys: where each was added, and when last used', response: { 200: listOf(accountPasskey), ...errors } },
    },
    async (request) => ({ success: true as const, data: (await listPasskeys(app.db, currentUser(request).id)).map(toAccountPasskey) }),
  );

  app.post(
    '/me/passkeys/options',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['me'],
        summary: 'Options for the browser to make a new passkey',
        description: 'Holds a challenge the new passkey signs, usable once within minutes. Limited per address.',
        response: { 200: dataOf(passkeyOptions), ...errors },
      },
    },
    async (request) => {
      await enforceLimit(app.db, { limit: RATE_LIMITS.passkeyRequestsPerAddress, subject: request.ip });
      return { success: true as const, data: { ...(await registrationOptions(app.db, rp, currentUser(request))) } };
    },
  );

  app.post(
    '/me/passkeys',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['me'],
        summary: 'Add the passkey the browser made with the options',
        description: 'It is named after the browser and system it was added on. The account is e-mailed about it.',
        body: passkeyBody,
        response: { 201: createdOf(accountPasskey), ...errors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const name = describeUserAgent(request.headers['user-agent'] ?? null);
      const added = await addPasskey(app.db, rp, user.id, request.body.response as unknown as RegistrationResponseJSON, name);
      await sendSecurityMail(app.db, app.config.publicUrl, user, { subject: mail.passkeyAddedSubject, paragraphs: mail.passkeyAddedParagraphs(user.name, name) });
      return reply.status(201).send({ success: true as const, data: toAccountPasskey(added), message: server.passkeyAdded });
    },
  );

  app.delete(
    '/me/passkeys/:id',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['me'], summary: 'Remove one of the account’s passkeys', params: idParams, response: { 200: successMessage, ...errors } },
    },
    async (request) => {
      if (!(await removePasskey(app.db, currentUser(request).id, request.params.id))) throw notFound(server.noPasskey);
      return { success: true, message: server.passkeyRemoved };
    },
  );

  app.post(
    '/auth/passkey/options',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Options for the browser to sign in with a passkey',
        description: 'Any passkey of this site may answer; its challenge is usable once within minutes. Limited per address.',
        response: { 200: dataOf(passkeyOptions), 429: errorResponse },
      },
    },
    async (request) => {
      await enforceLimit(app.db, { limit: RATE_LIMITS.passkeyRequestsPerAddress, subject: request.ip });
      return { success: true as const, data: { ...(await signInOptions(app.db, rp)) } };
    },
  );

  app.post(
    '/auth/passkey',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a passkey’s answer to the challenge of the options',
        body: passkeyBody,
        response: { 200: tokenResponse, ...errors },
      },
    },
    async (request, reply) => {
      const userId = await checkPasskeySignIn(app.db, rp, request.body.response as unknown as AuthenticationResponseJSON);
      // A passkey is something the person has, unlocked by something they are or know: both steps at once.
      const token = await signIn(app, reply, userId, { secondStep: true });
      return { success: true as const, token, message: messages.signInSuccess };
    },
  );
};
