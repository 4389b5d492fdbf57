import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accountTexts, messages, secondStepTexts, serverMessages, trustTexts, type LoginResponse } from '@furniture/contract';
import { forbidden, unauthorized } from '../http/errors.ts';
import { sendSecurityMail } from './account-mail.ts';
import { isNewDevice } from './account-sessions.ts';
import { issueChallenge } from './second-step.ts';
import { describeUserAgent } from './user-agents.ts';
import { findUserById } from './user-repository.ts';
import { type SessionClient, REFRESH_COOKIE, REFRESH_TOKEN_MAX_AGE_SECONDS, rotateSession, startSession } from './refresh-tokens.ts';

const { mail, settings } = accountTexts;

/** The refresh cookie is readable only by the API, never by scripts, and never sent cross-site. */
function cookieOptions(app: FastifyInstance) {
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: app.config.secureCookies,
    path: '/api',
    maxAge: REFRESH_TOKEN_MAX_AGE_SECONDS,
  };
}

/**
 * Signs a user in: a new session in the refresh cookie, and an access token to return. A suspended
 * account is refused here, whichever way it proved who it is. A sign-in from a browser and address
 * the account has not used before is e-mailed to its owner. `secondStep`: the sign-in passed a
 * second step (a code or a passkey), which admin calls need (decision 38).
 */
export async function signIn(app: FastifyInstance, reply: FastifyReply, userId: string, { secondStep = false } = {}): Promise<string> {
  const user = await findUserById(app.db, userId);
  if (!user) throw unauthorized(serverMessages.accounts.notSignedIn);
  if (user.suspendedAt) throw forbidden(trustTexts.accountSuspended);
  const client = clientOf(reply.request);
  if (await isNewDevice(app.db, userId, client)) {
    const device = describeUserAgent(client.userAgent ?? null);
    const notice = { subject: mail.newDeviceSubject, paragraphs: mail.newDeviceParagraphs(user.name, device, client.address ?? settings.unknownAddress) };
    await sendSecurityMail(app.db, app.config.publicUrl, user, notice);
  }
  const session = await startSession(app.db, userId, client, { secondStep });
  reply.setCookie(REFRESH_COOKIE, session.token, cookieOptions(app));
  return app.accessTokens.issue({ userId, sessionId: session.sessionId });
}

/**
 * Signs in an account whose first proof (its password, or Google) passed: at once, or, when it has
 * an authenticator app on, with a challenge that a code from the app finishes (POST
 * /api/auth/second-step). Whichever way someone signs in, the app is asked for. Answers the body
 * of POST /api/auth/login.
 */
export async function signInOrAskSecondStep(app: FastifyInstance, reply: FastifyReply, user: { id: string; totpSecret: string | null }): Promise<LoginResponse> {
  if (user.totpSecret) {
    const challenge = await issueChallenge((text) => app.accessTokens.keyedHash(text), user.id);
    return { success: true, secondStepNeeded: true, challenge, message: secondStepTexts.server.needed };
  }
  return { success: true, token: await signIn(app, reply, user.id), message: messages.signInSuccess };
}

const clientOf = (request: FastifyRequest): SessionClient => ({ userAgent: request.headers['user-agent'], address: request.ip });

export function clearSessionCookie(app: FastifyInstance, reply: FastifyReply) {
  reply.clearCookie(REFRESH_COOKIE, { ...cookieOptions(app), maxAge: undefined });
}

export const sessionCookie = (request: FastifyRequest): string | undefined => request.cookies[REFRESH_COOKIE];

/**
 * Exchanges the refresh cookie for a new one and an access token. A missing, expired or reused
 * cookie answers 401; a reused one has revoked its whole session on the way.
 */
export async function refreshSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<{ userId: string; sessionId: string; token: string }> {
  const current = sessionCookie(request);
  if (!current) throw unauthorized(serverMessages.accounts.notSignedIn);
  const result = await rotateSession(app.db, current, (text) => app.accessTokens.keyedHash(text), clientOf(request));
  if ('error' in result) {
    clearSessionCookie(app, reply);
    throw unauthorized(
      result.error === 'reused' ? serverMessages.accounts.sessionReused : serverMessages.accounts.sessionOver,
    );
  }
  reply.setCookie(REFRESH_COOKIE, result.token, cookieOptions(app));
  const { userId, sessionId } = result;
  return { userId, sessionId, token: await app.accessTokens.issue({ userId, sessionId }) };
}
