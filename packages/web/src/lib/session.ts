import { TOKEN_STORAGE_KEY } from '@furniture/contract';

/**
 * The access token of the signed-in user, kept in local storage so that every tab shares it,
 * and the single-flight refresh that renews it from the httpOnly refresh cookie.
 */

type Listener = (token: string | null) => void;
const listeners = new Set<Listener>();

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string | null) {
  try {
    if (token) localStorage.setItem(TOKEN_STORAGE_KEY, token);
    else localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode quotas); the session then lasts as long as the page.
  }
  for (const listener of listeners) listener(token);
}

export function onTokenChange(listener: Listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== 'undefined') {
  // Signing in or out in another tab changes this tab's session too.
  window.addEventListener('storage', (event) => {
    if (event.key !== TOKEN_STORAGE_KEY) return;
    for (const listener of listeners) listener(event.newValue);
  });
}

/** Seconds of leeway so a token is renewed before it expires on the way to the server. */
const EXPIRY_LEEWAY_SECONDS = 10;

function expiresAt(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : null;
  } catch {
    return null;
  }
}

export function isExpired(token: string, now = Date.now()): boolean {
  const exp = expiresAt(token);
  return exp !== null && exp - EXPIRY_LEEWAY_SECONDS <= now / 1000;
}

let inFlight: Promise<string | null> | null = null;

/**
 * Reads to its end the body of a response that is not needed: until then the browser counts the
 * request as still loading, for as long as the response is kept in memory.
 */
export async function discardBody(response: Response): Promise<void> {
  await response.text().catch(() => undefined);
}

/**
 * A new access token from the refresh cookie: null when the server says the session is over,
 * undefined when no answer came (offline, a server error, or the page being left mid-request).
 */
async function requestNewToken(): Promise<string | null | undefined> {
  const response = await fetch('/api/auth/refresh', { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
  if (!response) return undefined;
  if (response.status === 401) {
    await discardBody(response);
    return null;
  }
  const body = (await response.json().catch(() => null)) as { token?: unknown } | null;
  return response.ok && typeof body?.token === 'string' ? body.token : undefined;
}

/**
 * Renews the access token. Concurrent callers share one request, and tabs take turns through a
 * Web Lock: a tab that waited uses the token another tab just stored instead of rotating again.
 * Resolves to null, and clears the stored token, when the session is gone; resolves to null and
 * keeps it when the renewal got no answer, so a lost request (this page navigating away while
 * renewing, the network dropping) does not sign every tab out: the next call tries again.
 */
export function refreshToken(staleToken: string | null = getToken()): Promise<string | null> {
  const run = async () => {
    const current = getToken();
    if (current && current !== staleToken && !isExpired(current)) return current;
    const token = await requestNewToken();
    if (token === undefined) return null;
    setToken(token);
    return token;
  };
  if (!inFlight) {
    const refreshing: Promise<string | null> = navigator.locks
      ? (navigator.locks.request('furniture-token-refresh', run) as unknown as Promise<string | null>)
      : run();
    inFlight = refreshing.finally(() => {
      inFlight = null;
    });
  }
  return inFlight;
}

/** A token fit to send: the stored one, renewed first when it has expired. */
export async function currentToken(): Promise<string | null> {
  const token = getToken();
  if (token && isExpired(token)) return refreshToken(token);
  return token;
}
