import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, loginResponse, oidcLinkBody, serverMessages } from '@furniture/contract';
import { badRequest, conflict, unauthorized } from '../http/errors.ts';
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from './login-throttle.ts';
import { findLinkTarget, linkIdentity, resolveOidcAccount } from './oidc-accounts.ts';
import { ATTEMPT_COOKIE, LINK_COOKIE, clearOidcCookie, oidcCookieSigner, oidcCookies } from './oidc-cookies.ts';
import { sendResultPage } from './oidc-result-page.ts';
import { verifyPassword } from './passwords.ts';
import { signInOrAskSecondStep } from './sessions.ts';

const google = serverMessages.google;

const callbackQuery = z.object({ state: z.string().optional(), code: z.string().optional(), error: z.string().optional() }).passthrough();

/**
 * Google sign-in (any OpenID Connect provider) in a popup: authorization code flow with PKCE,
 * state and nonce. /start sends the popup to the provider; /callback ends in a small page that
 * posts the outcome to the window that opened the popup; /link completes a sign-in whose e-mail
 * belongs to a password account, once the password is proven.
 */
export const oidcRoutes: FastifyPluginAsyncZod = async (app) => {
  const settings = app.config.oidc;
  // openid-client is loaded only when sign-in with a provider is set up: a start-up cost otherwise.
  const oidc = settings ? (await import('./oidc-client.ts')).createOidcClient(settings, app.config.publicUrl) : undefined;
  const cookies = oidcCookies(app, await oidcCookieSigner(app.db));

  app.get(
    '/auth/oidc/start',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Start Google sign-in (opened in a popup): redirects to the provider' },
    },
    async (request, reply) => {
      if (!oidc) return sendResultPage(reply, 404, { ok: false, message: google.notSetUp });
      let authorization;
      try {
        authorization = await oidc.authorizationRequest();
      } catch (error) {
        request.log.warn({ err: error }, 'OpenID provider discovery failed');
        return sendResultPage(reply, 503, { ok: false, message: google.unavailable });
      }
      cookies.setAttempt(reply, authorization.attempt);
      return reply
        .header('cache-control', 'no-store')
        .header('cross-origin-opener-policy', 'unsafe-none')
        .redirect(authorization.url.href, 303);
    },
  );

  app.get(
    '/auth/oidc/callback',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Where the provider returns the popup; answers a page that posts the result to the opener',
        querystring: callbackQuery,
      },
    },
    async (request, reply) => {
      if (!oidc) return sendResultPage(reply, 404, { ok: false, message: google.notSetUp });
      const attempt = cookies.readAttempt(request);
      clearOidcCookie(app, reply, ATTEMPT_COOKIE);
      // A response that does not carry this browser's state is refused before talking to anyone.
      if (!attempt || request.query.state !== attempt.state) {
        return sendResultPage(reply, 400, { ok: false, message: google.attemptLost });
      }

      let profile;
      try {
        const queryStart = request.url.indexOf('?');
        profile = await oidc.completeAuthorization(queryStart >= 0 ? request.url.slice(queryStart) : '', attempt);
      } catch (error) {
        if (oidc.isProviderRefusal(error)) {
          const cancelled = error.error === 'access_denied';
          return sendResultPage(reply, 400, { ok: false, message: cancelled ? google.cancelled : google.failed });
        }
        request.log.warn({ err: error }, 'OpenID sign-in failed');
        return sendResultPage(reply, 400, { ok: false, message: google.failed });
      }

      const outcome = await resolveOidcAccount(app.db, profile);
      switch (outcome.kind) {
        case 'signed-in': {
          const answer = await signInOrAskSecondStep(app, reply, outcome.user);
          return sendResultPage(
            reply,
            200,
            'challenge' in answer ? { ok: false, secondStepChallenge: answer.challenge, message: answer.message } : { ok: true, message: answer.message },
          );
        }
        case 'link-required':
          cookies.setPendingLink(reply, { userId: outcome.user.id, issuer: profile.issuer, subject: profile.subject });
          return sendResultPage(reply, 409, { ok: false, linkRequired: true, message: google.linkWithPassword });
        case 'refused':
          return sendResultPage(reply, 409, { ok: false, message: outcome.message });
      }
    },
  );

  app.post(
    '/auth/oidc/link',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Link the pending Google identity to the account with its e-mail, proving that account’s password',
        body: oidcLinkBody,
        response: { 200: loginResponse, 400: errorResponse, 401: errorResponse, 409: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      const pending = cookies.readPendingLink(request);
      const user = pending ? await findLinkTarget(app.db, pending.userId) : undefined;
      if (!pending || !user) throw badRequest(google.nothingToLink);

      await assertLoginAllowed(app.db, user.email, request.ip);
      if (!(await verifyPassword(user.passwordHash, request.body.password))) {
        await recordLoginFailure(app.db, user.email, request.ip);
        throw unauthorized(google.wrongPassword);
      }
      await clearLoginFailures(app.db, user.email, request.ip);
      if (!(await linkIdentity(app.db, user.id, pending.issuer, pending.subject))) {
        clearOidcCookie(app, reply, LINK_COOKIE);
        throw conflict(google.linkedElsewhere);
      }
      clearOidcCookie(app, reply, LINK_COOKIE);
      return signInOrAskSecondStep(app, reply, user);
    },
  );
};

