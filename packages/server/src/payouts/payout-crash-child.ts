import { createDatabase } from '../db/client.ts';
import { createSimulatedPayoutProvider } from './payout-provider.ts';
import { requestPayout } from './payouts.ts';

/**
 * For payouts.test.ts: an app process that asks for a seller's payout and is killed (SIGKILL, as
 * kill -9) right after the payout provider answered, before the answer is recorded.
 * Env: DATABASE_URL, SELLER_ID.
 */
const { db } = createDatabase(process.env.DATABASE_URL!, 2);
const simulated = createSimulatedPayoutProvider(db);
const provider = {
  ...simulated,
  async payout(request: Parameters<typeof simulated.payout>[0]) {
    await simulated.payout(request);
    process.kill(process.pid, 'SIGKILL');
    throw new Error('unreachable');
  },
};
await requestPayout({ db, provider }, process.env.SELLER_ID!);
