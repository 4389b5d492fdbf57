import { FIRST_ANSWERS_ELEMENT_ID, friendlyMessage, uiTexts } from '@furniture/contract';
import { currentToken, discardBody, getToken, refreshToken } from './session.ts';

/** An answer of the API that was not a success: its status and the server's message. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** No answer came: the network failed, or the session's renewal got none. */
export class NoAnswerError extends Error {
  constructor(options?: ErrorOptions) {
    super(uiTexts.shell.noAnswer, options);
    this.name = 'NoAnswerError';
  }
}

type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  query?: Query;
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal;
}

export function apiUrl(path: string, query?: Query): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  const qs = search.toString();
  return `/api${path}${qs ? `?${qs}` : ''}`;
}

/** The message of an API answer, in the words a person reads (the API may name fields as requests do). */
export function messageOf(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const record = body as { message?: unknown; error?: { message?: unknown } };
    if (typeof record.message === 'string' && record.message) return friendlyMessage(record.message);
    if (typeof record.error?.message === 'string' && record.error.message) return record.error.message;
  }
  return fallback;
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = `bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  return fetch(apiUrl(path, options.query), {
    method: options.method ?? 'GET',
    headers,
    body,
    signal: options.signal,
    credentials: 'same-origin',
    // Public answers may be reused briefly by other caches; this app always asks (getting 304 when
    // nothing changed), so a person sees their own write on their next read.
    cache: 'no-cache',
  }).catch((error: unknown) => {
    // Called off by the caller (a query no longer wanted): not a failure to answer.
    if (options.signal?.aborted) throw error;
    throw new NoAnswerError({ cause: error });
  });
}

/**
 * The token to send: the stored one, renewed first when it has expired. A stored session whose
 * renewal got no answer fails the call as unanswered: sent without its token, the call would
 * only be refused, or answered as to a stranger.
 */
async function tokenToSend(): Promise<string | null> {
  const token = await currentToken();
  if (!token && getToken()) throw new NoAnswerError();
  return token;
}

/**
 * The answers the server put into the page for the reads it makes first (a page's data and the
 * shell's categories), by URL. Each serves the first call that asks for it, and only that one:
 * any later call asks the server, so nothing older than the page is shown twice.
 */
let firstAnswers: Map<string, unknown> | undefined;

/** Where there is no page to read them from (Home rendered on the server), the answers are handed in. */
export function provideFirstAnswers(answers: Record<string, unknown>) {
  firstAnswers = new Map(Object.entries(answers));
}

function takeFirstAnswer(url: string): unknown {
  firstAnswers ??= new Map(
    Object.entries(JSON.parse(document.getElementById(FIRST_ANSWERS_ELEMENT_ID)?.textContent ?? '{}') as Record<string, unknown>),
  );
  const answer = firstAnswers.get(url);
  firstAnswers.delete(url);
  return answer;
}

/** Calls that must not trigger a token renewal: they are how a session starts or renews. */
const sessionPaths = new Set(['/auth/login', '/auth/second-step', '/auth/signup', '/auth/refresh', '/auth/oidc/link']);

/**
 * Calls the API with the bearer token. A 401 renews the token once (shared by concurrent
 * calls) and retries, so an expired session continues unnoticed while the refresh cookie lives.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  if (!options.method || options.method === 'GET') {
    const answer = takeFirstAnswer(apiUrl(path, options.query));
    if (answer !== undefined) return answer as T;
  }
  const token = await tokenToSend();
  let response = await send(path, options, token);
  if (response.status === 401 && !sessionPaths.has(path)) {
    const renewed = await refreshToken(token);
    if (renewed) {
      await discardBody(response);
      response = await send(path, options, renewed);
    } else if (getToken()) {
      // The renewal got no answer (a refused one ends the session): the session may well be alive.
      await discardBody(response);
      throw new NoAnswerError();
    }
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok || (body as { success?: unknown } | null)?.success === false) {
    throw new ApiError(messageOf(body, response.statusText || `Request failed (${response.status})`), response.status, body);
  }
  return body as T;
}

/** A text answer of the API (a CSV statement), with the bearer token. */
export async function apiText(path: string, options: RequestOptions = {}): Promise<string> {
  const response = await send(path, options, await tokenToSend());
  if (!response.ok) throw new ApiError(messageOf(await response.json().catch(() => null), `Request failed (${response.status})`), response.status, null);
  return response.text();
}

export interface UploadOptions {
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

function xhrSend(path: string, form: FormData, token: string | null, options: UploadOptions) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(path));
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    if (token) xhr.setRequestHeader('authorization', `bearer ${token}`);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) options.onProgress?.(Math.round((event.loaded / event.total) * 100));
    });
    xhr.addEventListener('load', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    });
    xhr.addEventListener('error', () => reject(new NoAnswerError()));
    xhr.addEventListener('abort', () => reject(new DOMException('Upload aborted', 'AbortError')));
    options.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

/** Posts multipart form data with upload progress (fetch cannot report it), with the same 401 handling as `api`. */
export async function upload<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const token = await tokenToSend();
  let result = await xhrSend(path, form, token, options);
  if (result.status === 401 && !sessionPaths.has(path)) {
    const renewed = await refreshToken(token);
    if (renewed) result = await xhrSend(path, form, renewed, options);
    else if (getToken()) throw new NoAnswerError();
  }
  const ok = result.status >= 200 && result.status < 300;
  if (!ok || (result.body as { success?: unknown } | null)?.success === false) {
    throw new ApiError(messageOf(result.body, `Request failed (${result.status})`), result.status, result.body);
  }
  return result.body as T;
}
