import http from 'node:http';

/** A server-sent event as a client parses it. */
export interface ReceivedEvent {
  id?: string;
  event: string;
  data: unknown;
}

export interface EventStreamClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every event received so far, in order (`ready` included). */
  events: ReceivedEvent[];
  /** Comment lines received so far (heartbeats). */
  comments: string[];
  /** The `retry:` hint, once received. */
  retry?: number;
  /** The next event received from now on, or already received and not yet taken, that matches. */
  next(matches?: (event: ReceivedEvent) => boolean): Promise<ReceivedEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Opens a server-sent event stream and parses it as EventSource would: frames separated by a blank
 * line, `id:`, `event:`, `data:`, `retry:` and `:` comments. Through node:http rather than fetch,
 * whose connection pool opens a spare connection when a stream is aborted (which an app closing
 * then waits on until it times out).
 */
export async function openEventStream(url: string, headers: Record<string, string> = {}): Promise<EventStreamClient> {
  const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers }, agent: false });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });
  const waiting: Array<{ matches: (event: ReceivedEvent) => boolean; resolve: (event: ReceivedEvent) => void }> = [];
  let taken = 0;
  const client: EventStreamClient = {
    status: response.statusCode!,
    headers: response.headers,
    events: [],
    comments: [],
    next(matches = () => true) {
      const index = client.events.findIndex((event, i) => i >= taken && matches(event));
      if (index >= 0) {
        taken = index + 1;
        return Promise.resolve(client.events[index]!);
      }
      return new Promise((resolve) => waiting.push({ matches, resolve }));
    },
    ended: Promise.resolve(),
    close: () => request.destroy(),
  };

  const receive = (event: ReceivedEvent) => {
    client.events.push(event);
    const waiter = waiting.find((candidate) => candidate.matches(event));
    if (!waiter) return;
    waiting.splice(waiting.indexOf(waiter), 1);
    taken = client.events.length;
    waiter.resolve(event);
  };

  const parseFrame = (frame: string) => {
    const event: ReceivedEvent = { event: 'message', data: undefined };
    const data: string[] = [];
    for (const line of frame.split('\n')) {
      if (line.startsWith(':')) client.comments.push(line.slice(1).trim());
      else if (line.startsWith('retry: ')) client.retry = Number(line.slice(7));
      else if (line.startsWith('id: ')) event.id = line.slice(4);
      else if (line.startsWith('event: ')) event.event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    if (data.length > 0) receive({ ...event, data: JSON.parse(data.join('\n')) });
  };

  client.ended = new Promise((resolve) => {
    response.setEncoding('utf8');
    let buffer = '';
    response.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        parseFrame(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    });
    response.on('close', () => resolve());
  });
  return client;
}
