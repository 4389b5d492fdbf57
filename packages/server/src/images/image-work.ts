import { serverMessages } from '@furniture/contract';
import { HttpError } from '../http/errors.ts';

/**
 * How much image work one app server does at once. Each upload is read and decoded inside a slot:
 * two at a time leave two of libuv's four threads for everything else (new database connections
 * look their host up there, and starved, they timed out), and bound the memory of decoding to two
 * images. The rest wait briefly, in order, holding nothing but their unread request; past the
 * queue or the wait they are refused with 429 and Retry-After. This bounds a resource of this
 * process, not something shared, so it is counted here rather than in PostgreSQL.
 */
export const IMAGE_WORK = { concurrency: 2, queue: 24, waitMs: 20_000, retryAfterSeconds: 10 } as const;

export interface ImageWorkGate {
  /** Runs the work in a slot once one is free; 429 when too many wait or the wait is too long. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

const busy = () => new HttpError(429, serverMessages.images.busy, { 'retry-after': String(IMAGE_WORK.retryAfterSeconds) });

export function createImageWorkGate(limits: { concurrency: number; queue: number; waitMs: number } = IMAGE_WORK): ImageWorkGate {
  let running = 0;
  const waiting: Array<{ start: () => void; timer: NodeJS.Timeout }> = [];

  const release = () => {
    running -= 1;
    const next = waiting.shift();
    if (next) {
      clearTimeout(next.timer);
      running += 1;
      next.start();
    }
  };

  const slot = () =>
    new Promise<void>((resolve, reject) => {
      if (running < limits.concurrency) {
        running += 1;
        return resolve();
      }
      if (waiting.length >= limits.queue) return reject(busy());
      const entry = {
        start: resolve,
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(entry), 1);
          reject(busy());
        }, limits.waitMs),
      };
      waiting.push(entry);
    });

  return {
    async run(work) {
      await slot();
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}
