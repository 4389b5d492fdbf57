import { type DataResponse, LIVE_EVENTS_RETRY_MS, type LiveEvent, type LiveEventPage } from '@furniture/contract';
import { api, ApiError } from './api-client.ts';
import { currentToken, discardBody, getToken, refreshToken } from './session.ts';

/**
 * Live events for the signed-in user (decision 17): one connection per tab to `GET /api/events`,
 * read with fetch streaming so that it carries the Authorization header and the usual token
 * renewal. It reconnects with back-off and `Last-Event-ID`, so nothing is missed across a dropped
 * network or a server restart, and falls back to polling when the stream cannot be opened (a proxy
 * that buffers or refuses it), trying the stream again now and then.
 *
 * Features subscribe by event type; the connection is started for signed-in users only, and this
 * module is loaded lazily, so it costs visitors nothing:
 *
 *   useEffect(() => subscribeToLiveEvents('message.created', (event) => addMessage(event.data)), []);
 */

export type LiveEventListener = (event: LiveEvent) => void;
export type LiveEventsStatus = 'off' | 'connecting' | 'streaming' | 'polling';

/** Waits before reconnecting after a failure: doubling from the first to the last, with jitter. */
const RECONNECT_DELAYS_MS = { first: 1_000, last: 30_000 };
/** Failed attempts to open the stream in a row before falling back to polling. */
const FAILURES_BEFORE_POLLING = 3;
/** Pause between polls when nothing more is waiting. */
const POLL_INTERVAL_MS = 10_000;
/** How long to poll before trying the stream again. */
const POLLING_PERIOD_MS = 5 * 60_000;

const listeners = new Map<string, Set<LiveEventListener>>();
const statusListeners = new Set<(status: LiveEventsStatus) => void>();
let status: LiveEventsStatus = 'off';
let connection: AbortController | null = null;
/** Where this tab resumes: the id of the last event (or `ready`) it received. */
let lastEventId: string | null = null;
let retryMs = LIVE_EVENTS_RETRY_MS;

/** Calls the listener with each live event of this type; answers a function that unsubscribes. */
export function subscribeToLiveEvents(type: string, listener: LiveEventListener): () => void {
  let ofType = listeners.get(type);
  if (!ofType) {
    ofType = new Set();
    listeners.set(type, ofType);
  }
  ofType.add(listener);
  return () => {
    ofType.delete(listener);
  };
}

export function liveEventsStatus(): LiveEventsStatus {
  return status;
}

/** Calls the listener whenever the connection's status changes; answers a function that unsubscribes. */
export function onLiveEventsStatus(listener: (status: LiveEventsStatus) => void): () => void {
  statusListeners.add(listener);
  return () => {
    statusListeners.delete(listener);
  };
}

/** Opens this tab's connection, unless it is open. Call when a user has signed in. */
export function startLiveEvents(): void {
  if (connection) return;
  connection = new AbortController();
  void run(connection.signal);
}

/** Closes the connection and forgets where it was (the next user starts afresh). Call on signing out. */
export function stopLiveEvents(): void {
  connection?.abort();
  connection = null;
  lastEventId = null;
  setStatus('off');
}

function setStatus(next: LiveEventsStatus) {
  if (next === status) return;
  status = next;
  for (const listener of statusListeners) listener(next);
}

function dispatch(event: LiveEvent) {
  lastEventId = event.id;
  for (const listener of listeners.get(event.type) ?? []) {
    try {
      listener(event);
    } catch (error) {
      // One feature's failure must not stop the others, nor the connection.
      console.error(error);
    }
  }
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const backoff = (failures: number) =>
  Math.min(RECONNECT_DELAYS_MS.first * 2 ** (failures - 1), RECONNECT_DELAYS_MS.last) * (0.5 + Math.random() / 2);

async function run(signal: AbortSignal) {
  let failures = 0;
  while (!signal.aborted) {
    setStatus('connecting');
    const outcome = await stream(signal);
    if (signal.aborted || outcome === 'signed-out') break;
    if (outcome === 'ended') {
      // The server ended a working stream (its token expired, or it is shutting down).
      failures = 0;
      await wait(retryMs, signal);
    } else if (outcome === 'renewed') {
      continue;
    } else if (++failures >= FAILURES_BEFORE_POLLING) {
      failures = 0;
      if ((await poll(signal)) === 'signed-out') break;
    } else {
      await wait(backoff(failures), signal);
    }
  }
  if (!signal.aborted) stopLiveEvents();
}

type StreamOutcome = 'ended' | 'failed' | 'renewed' | 'signed-out';

/** No token to open the stream with: signed out, or a renewal that got no answer and is tried again. */
const withoutToken = (): StreamOutcome => (getToken() ? 'failed' : 'signed-out');

/** Reads the event stream until it ends; `failed` when it could not be opened or broke off early. */
async function stream(signal: AbortSignal): Promise<StreamOutcome> {
  const token = await currentToken();
  if (!token) return withoutToken();
  const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `bearer ${token}` };
  if (lastEventId) headers['last-event-id'] = lastEventId;
  let response: Response;
  try {
    response = await fetch('/api/events', { headers, signal, cache: 'no-store', credentials: 'same-origin' });
  } catch {
    return 'failed';
  }
  if (response.status === 401) {
    await discardBody(response);
    return (await refreshToken(token)) ? 'renewed' : withoutToken();
  }
  if (!response.ok || !response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return 'failed';

  let opened = false;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = parseFrame(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (frame.event === 'ready') {
          opened = true;
          if (frame.id !== undefined) lastEventId = frame.id;
          setStatus('streaming');
        } else if (frame.id !== undefined && frame.data !== undefined) {
          dispatch({ id: frame.id, type: frame.event, data: JSON.parse(frame.data) });
        }
      }
    }
  } catch {
    // The network dropped; reconnect below.
  }
  return opened ? 'ended' : 'failed';
}

interface Frame {
  id?: string;
  event: string;
  data?: string;
}

/** One server-sent event frame: `id:`, `event:`, `data:` and `retry:` lines; comments are skipped. */
function parseFrame(text: string): Frame {
  const frame: Frame = { event: 'message' };
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const field = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
    else if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
    else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
  }
  return frame;
}

/** Polls for a while, then answers so that the stream is tried again. */
async function poll(signal: AbortSignal): Promise<'done' | 'signed-out'> {
  setStatus('polling');
  const until = Date.now() + POLLING_PERIOD_MS;
  while (!signal.aborted && Date.now() < until) {
    try {
      const { data } = await api<DataResponse<LiveEventPage>>('/events', {
        query: { after: lastEventId ?? undefined },
        signal,
      });
      for (const event of data.events) dispatch(event);
      lastEventId = data.lastEventId;
      if (data.hasMore) continue;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401 && !getToken()) return 'signed-out';
    }
    await wait(POLL_INTERVAL_MS, signal);
  }
  return 'done';
}
