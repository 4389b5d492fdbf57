import type { DataResponse, LoginResponse, MessageResponse, PublicUser, SecondStepNeeded, TokenResponse } from '@furniture/contract';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api, ApiError, upload, type UploadOptions } from './api-client.ts';
import { answerWithPasskey } from './passkeys.ts';
import { queryClient } from './query-client.ts';
import { getToken, onTokenChange, refreshToken, setToken } from './session.ts';

/**
 * The session outside React, so that route middleware can wait for it: the current user and
 * whether it is still being established. The React side reads it through `AuthProvider`.
 */
export interface AuthState {
  user: PublicUser | null;
  loading: boolean;
  /** The session's user could not be loaded for want of an answer; it is loaded again shortly. */
  unreachable: boolean;
}

const initialState: AuthState = { user: null, loading: true, unreachable: false };
const signedOut: AuthState = { user: null, loading: false, unreachable: false };

/** Waits between attempts to load the session's user while no answer comes: doubling to the last. */
export const USER_RETRY_DELAYS_MS = { first: 1_000, last: 15_000 };
let state = initialState;
const listeners = new Set<() => void>();
let pending: Promise<PublicUser | null> | null = null;

function setState(next: AuthState) {
  state = next;
  for (const listener of listeners) listener();
}

export function getAuthState(): AuthState {
  return state;
}

/**
 * The state a page rendered by the server was rendered with (nobody known yet), which hydration
 * starts from even when the session is known by then, so that the markup matches; the app then
 * renders the signed-in page over it.
 */
export function getServerAuthState(): AuthState {
  return initialState;
}

export function subscribeAuth(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Whether loading the user failed for want of an answer (offline, a server error, a renewal of the
 * token that got none) rather than because the session is over. The token is then still stored
 * (session.ts), and signing the person out would send them to the login page of a session that is
 * alive.
 */
function unanswered(error: unknown): boolean {
  if (!getToken()) return false;
  return !(error instanceof ApiError) || error.status >= 500;
}

/**
 * Resolves after `delayMs`, or sooner when the browser is back online or the token changes (renewed
 * or ended by another tab).
 */
function nextAttempt(delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      stopWatchingToken();
      resolve();
    };
    const timer = setTimeout(done, delayMs);
    window.addEventListener('online', done);
    const stopWatchingToken = onTokenChange(done);
  });
}

async function fetchUser(): Promise<PublicUser | null> {
  for (let delayMs = USER_RETRY_DELAYS_MS.first; ; delayMs = Math.min(delayMs * 2, USER_RETRY_DELAYS_MS.last)) {
    if (!getToken()) {
      setState(signedOut);
      return null;
    }
    if (!state.loading) setState({ ...state, loading: true });
    try {
      const { data } = await api<DataResponse<PublicUser>>('/auth/me');
      setState({ user: data, loading: false, unreachable: false });
      return data;
    } catch (error) {
      if (!unanswered(error)) {
        console.error(error);
        setState(signedOut);
        return null;
      }
      // Still loading: guarded pages wait for the user instead of sending them to log in.
      setState({ ...state, loading: true, unreachable: true });
      await nextAttempt(delayMs);
    }
  }
}

/** Loads the user the stored token belongs to; one request at a time. */
function loadUser(): Promise<PublicUser | null> {
  pending ??= fetchUser().finally(() => {
    pending = null;
  });
  return pending;
}

/** Resolves once the session is known: the user, or null when signed out. */
export function authReady(): Promise<PublicUser | null> {
  if (pending) return pending;
  if (!state.loading) return Promise.resolve(state.user);
  return loadUser();
}

let started = false;

export function startAuth() {
  if (started) return;
  started = true;
  onTokenChange((token) => {
    if (!token) {
      if (state.user || state.loading) setState(signedOut);
      queryClient.removeQueries({ predicate: (query) => query.meta?.private === true });
    } else if (!state.user) {
      void loadUser();
    }
  });
  void loadUser();
}

async function acceptToken(response: TokenResponse): Promise<PublicUser> {
  setToken(response.token);
  const user = await loadUser();
  if (!user) throw new Error(response.message || 'Signing in failed');
  return user;
}

/**
 * Signs in with e-mail and password: the user, or, for an account with two-step sign-in, the
 * challenge to finish with `completeSecondStep` (decision 38).
 */
export async function signIn(email: string, password: string): Promise<PublicUser | SecondStepNeeded> {
  const response = await api<LoginResponse>('/auth/login', { method: 'POST', json: { email, password } });
  return 'challenge' in response ? response : acceptToken(response);
}

/** Finishes a password sign-in with a code from the authenticator app, or a recovery code. */
export async function completeSecondStep(challenge: string, proof: { code: string } | { recoveryCode: string }): Promise<PublicUser> {
  return acceptToken(await api<TokenResponse>('/auth/second-step', { method: 'POST', json: { challenge, ...proof } }));
}

export async function signUp(form: FormData, options?: UploadOptions): Promise<{ user: PublicUser; message: string }> {
  const response = await upload<TokenResponse>('/auth/signup', form, options);
  return { user: await acceptToken(response), message: response.message };
}

/** Signs in with a passkey the device holds, which the person picks in the browser's window. */
export async function signInWithPasskey(): Promise<PublicUser> {
  return acceptToken(await api<TokenResponse>('/auth/passkey', { method: 'POST', json: { response: await passkeyAnswer() } }));
}

/** A passkey's answer to a fresh sign-in challenge: it signs in, or confirms who is asking (deleting the account). */
export async function passkeyAnswer() {
  const { data } = await api<DataResponse<PublicKeyCredentialRequestOptionsJSON>>('/auth/passkey/options', { method: 'POST' });
  return answerWithPasskey(data);
}

/** Sets a new password with the e-mailed link's token, which signs in (every other session ends). */
export async function resetPassword(token: string, password: string): Promise<string> {
  const response = await api<TokenResponse>('/auth/reset-password', { method: 'POST', json: { token, password } });
  await acceptToken(response);
  return response.message;
}

/** Loads the signed-in user again, after the account changed (its e-mail was verified). */
export async function reloadUser(): Promise<void> {
  // A load begun before the change (the page just opened) may bring the old record: load after it.
  await pending;
  if (getToken()) await loadUser();
}

/** After the identity provider's popup reports success, the refresh cookie it set yields a token. */
export async function completeExternalSignIn(): Promise<PublicUser | null> {
  const token = await refreshToken(null);
  if (!token) return null;
  return loadUser();
}

/**
 * Google reported an e-mail that already has an account: its password proves the owner, and
 * links the Google identity to it (the pending link is held by the server in a cookie). An account
 * with an authenticator app answers a challenge, as a password sign-in does.
 */
export async function linkExternalAccount(password: string): Promise<PublicUser | SecondStepNeeded> {
  const response = await api<LoginResponse>('/auth/oidc/link', { method: 'POST', json: { password } });
  return 'challenge' in response ? response : acceptToken(response);
}

/** Ends the session here whatever the server says; rejects with the server's error so it can be shown. */
export async function signOut(): Promise<string> {
  try {
    const response = await api<MessageResponse>('/auth/logout', { method: 'POST' });
    return response.message;
  } finally {
    forgetSession();
  }
}

/**
 * Deletes the signed-in account, confirmed by its password or a passkey's answer. Once it is gone,
 * `leave` takes the tab off the signed-in pages and the tab is signed out too.
 */
export async function deleteAccount(
  confirmation: { password: string } | { passkey: Awaited<ReturnType<typeof passkeyAnswer>> },
  leave: () => void | Promise<void>,
): Promise<void> {
  await api<MessageResponse>('/me', { method: 'DELETE', json: confirmation });
  try {
    await leave();
  } finally {
    forgetSession();
  }
}

function forgetSession() {
  setToken(null);
  setState(signedOut);
  queryClient.clear();
}
