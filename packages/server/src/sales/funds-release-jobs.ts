import type { FastifyInstance } from 'fastify';
import { releaseFundsTask, releaseFundsWhenDue } from './buyer-protection.ts';

/** Buyer protection's release job (decision 33): money still held goes to the seller when its date comes. */
export function registerFundsRelease(app: FastifyInstance) {
  app.jobs.handle(releaseFundsTask, async (payload) => {
    await app.db.transaction((tx) => releaseFundsWhenDue(tx, payload));
  });
}
