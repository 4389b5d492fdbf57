import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../http/errors.ts';
import { createImageWorkGate } from './image-work.ts';

/** Work that runs until it is told to finish, recording that it started. */
function heldWork(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: async () => (started.push(name), await done, name), finish: () => finish() };
}

const refusal = (error: unknown) => (error instanceof HttpError ? { status: error.statusCode, retryAfter: error.headers['retry-after'] } : error);

afterEach(() => {
  vi.useRealTimers();
});

describe('the image work gate', () => {
  it('runs a fixed number at once, queues a few in order, and refuses the rest at once with 429 and Retry-After', async () => {
    const gate = createImageWorkGate({ concurrency: 2, queue: 1, waitMs: 60_000 });
    const started: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => heldWork(started, name));
    const running = [gate.run(a!.work), gate.run(b!.work), gate.run(c!.work)];
    const refused = await gate.run(d!.work).catch(refusal);
    expect(refused).toEqual({ status: 429, retryAfter: '10' });
    await vi.waitFor(() => expect(started).toEqual(['a', 'b']));

    a!.finish();
    await vi.waitFor(() => expect(started).toEqual(['a', 'b', 'c']));
    b!.finish();
    c!.finish();
    expect(await Promise.all(running)).toEqual(['a', 'b', 'c']);
  });

  it('refuses work that waited too long, and frees its slot for the next when work fails', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const gate = createImageWorkGate({ concurrency: 1, queue: 5, waitMs: 1_000 });
    const started: string[] = [];
    const first = heldWork(started, 'first');
    const running = gate.run(first.work);
    const waiting = gate.run(heldWork(started, 'late').work).catch(refusal);
    vi.advanceTimersByTime(1_000);
    expect(await waiting).toEqual({ status: 429, retryAfter: '10' });

    first.finish();
    await running;
    await expect(gate.run(async () => Promise.reject(new Error('damaged')))).rejects.toThrow('damaged');
    expect(await gate.run(async () => 'next')).toBe('next');
    expect(started).toEqual(['first']);
  });
});
