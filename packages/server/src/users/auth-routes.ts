import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf, errorResponse, getTokenBody, loginBody, loginResponse, publicUser, serverMessages, signupBody, successMessage, tokenResponse, userAddToDbBody } from '@furniture/contract';
import { authenticate, currentUser } from '../http/access.ts';
import { multipartImageBody, takeImageUploads } from '../images/image-uploads.ts';
import { conflict, forbidden, unauthorized } from '../http/errors.ts';
import { enforceLimit, RATE_LIMITS } from '../http/rate-limit.ts';
import { sendVerificationMail } from './account-mail.ts';
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from './login-throttle.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { endSession, sessionOwner } from './refresh-tokens.ts';
import { clearSessionCookie, refreshSession, sessionCookie, signIn, signInOrAskSecondStep } from './sessions.ts';
import { claimProfile, findUserByEmail, findUserById, insertUser, toPublicUser } from './user-repository.ts';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse, 429: errorResponse };

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  // Sign-up takes a photo as a file.
  await takeImageUploads(app);
  app.post(
    '/auth/signup',
    {
      config: { access: 'public' },
      // The photo may travel as a file in a multipart form; it becomes the image URL. Such photos
      // are limited per address, as the caller has no account yet.
      preValidation: multipartImageBody(app, {
        limitedBy: (request) => ({ limit: RATE_LIMITS.photoSignUpsPerAddress, subject: request.ip }),
      }),
      schema: {
        tags: ['auth'],
        summary: 'Create a buyer or seller account and sign in',
        body: signupBody,
        response: { 201: tokenResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { name, email, password, image, userRole } = request.body;
      await enforceLimit(app.db, { limit: RATE_LIMITS.signUpsPerAddress, subject: request.ip });
      const passwordHash = await hashPassword(password);
      const user = await app.db.transaction(async (tx) => {
        const created =
          (await insertUser(tx, { name, email, image, role: userRole, passwordHash })) ??
          (await claimProfile(tx, email, { name, image, role: userRole, passwordHash }));
        if (!created) throw conflict(serverMessages.accounts.emailTaken);
        await sendVerificationMail(tx, app.config.publicUrl, created);
        return created;
      });
      const token = await signIn(app, reply, user.id);
      return reply.status(201).send({ success: true, token, message: serverMessages.accounts.ready });
    },
  );

  app.post(
    '/auth/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        description:
          'An account with an authenticator app on gets no session yet: `secondStepNeeded` and a challenge, valid for minutes, ' +
          'to finish with POST /api/auth/second-step.',
        body: loginBody,
        response: { 200: loginResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      await assertLoginAllowed(app.db, email, request.ip);
      const user = await findUserByEmail(app.db, email);
      if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
        await recordLoginFailure(app.db, email, request.ip);
        throw unauthorized(serverMessages.accounts.wrongCredentials);
      }
      await clearLoginFailures(app.db, email, request.ip);
      return signInOrAskSecondStep(app, reply, user);
    },
  );

  app.post(
    '/auth/refresh',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Exchange the refresh cookie for a new access token', response: { 200: tokenResponse, ...errors } },
    },
    async (request, reply) => {
      const { token } = await refreshSession(app, request, reply);
      return { success: true as const, token, message: serverMessages.accounts.sessionRefreshed };
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'End the session of the refresh cookie', response: { 200: successMessage } },
    },
    async (request, reply) => {
      const token = sessionCookie(request);
      if (token) await endSession(app.db, token);
      clearSessionCookie(app, reply);
      return { success: true, message: serverMessages.accounts.signedOut };
    },
  );

  app.get(
    '/auth/me',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['auth'], summary: 'The signed-in account', response: { 200: dataOf(publicUser), ...errors } },
    },
    async (request) => ({ success: true as const, data: toPublicUser(currentUser(request)) }),
  );

  // The specification's token call. A token is only issued to a caller who proves to be the
  // account: with a valid access token, or with the session cookie (which it then rotates).
  app.post(
    '/getToken',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Issue an access token to the proven owner of an e-mail', body: getTokenBody, response: { 200: tokenResponse, ...errors } },
    },
    async (request, reply) => {
      const { email } = request.body;
      const caller = await authenticate(app, request).catch(() => null);
      if (caller?.sessionId) {
        if (caller.user.email !== email) throw forbidden(serverMessages.accounts.onlyOwnToken);
        const token = await app.accessTokens.issue({ userId: caller.user.id, sessionId: caller.sessionId });
        return { success: true as const, token, message: serverMessages.accounts.tokenIssued };
      }
      // The cookie's owner is checked before it is used up: a refused call changes nothing.
      const cookie = sessionCookie(request);
      const ownerId = cookie ? await sessionOwner(app.db, cookie) : undefined;
      const owner = ownerId ? await findUserById(app.db, ownerId) : undefined;
      if (owner && owner.email !== email) throw forbidden(serverMessages.accounts.onlyOwnToken);
      const session = await refreshSession(app, request, reply);
      if (session.userId !== owner?.id) throw forbidden(serverMessages.accounts.onlyOwnToken);
      return { success: true as const, token: session.token, message: serverMessages.accounts.tokenIssued };
    },
  );

  // The specification's client saves the profile after signing up with its identity provider,
  // without a token. Here sign-up already saved it, so this only confirms it to the account's
  // proven owner: the caller with its access token, or with its session cookie (read, not used
  // up). Nobody can create or shape an account for an e-mail they have not proven is theirs.
  app.post(
    '/userAddToDb',
    {
      config: { access: 'public' },
      schema: {
        tags: ['users'],
        summary: "Confirm the signed-in account's profile (sign-up has saved it)",
        description: 'Creates and changes nothing. Answers 401 to a caller who is not signed in, and 403 for an e-mail not their own.',
        body: userAddToDbBody,
        response: { 200: successMessage, ...errors },
      },
    },
    async (request) => {
      const caller = await authenticate(app, request).catch(() => null);
      const cookie = sessionCookie(request);
      const ownerId = caller?.user.id ?? (cookie ? await sessionOwner(app.db, cookie) : undefined);
      if (!ownerId) throw unauthorized(serverMessages.accounts.signUpFirst);
      const owner = caller?.user ?? (await findUserById(app.db, ownerId));
      if (owner?.email !== request.body.email) throw forbidden(serverMessages.accounts.onlyOwnProfile);
      return { success: true, message: serverMessages.accounts.profileSaved };
    },
  );
};
