import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataOf, earnings, earningsQuery, financeOverview, statementQuery, statementTexts } from '@furniture/contract';
import { currentUser } from '../http/access.ts';
import { errorResponses } from '../http/responses.ts';
import { earningsOf, EARNINGS_PAGE_SIZE, financeOverview as readFinanceOverview, statementOf } from './earnings.ts';

const ledgerRules = 'Every amount is in integer US cents and is a sum over the ledger (decision 33).';

/** A CSV field, quoted when it must be (RFC 4180); text starting like a formula is neutralised for spreadsheets. */
function csvField(text: string): string {
  const safe = /^[=+\-@]/.test(text) && !/^-\d+\.\d\d$/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A seller's earnings and monthly statement, and the admin's finance overview. */
export const earningsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/me/earnings',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['earnings'],
        summary: 'Your earnings: pending, available and paid out, with every entry (seller)',
        description:
          'pendingCents: held by buyer protection (your share, after the fee); availableCents: ready to pay out (may be negative after a refund of a released sale); ' +
          `paidOutCents. held: the sales still held and when each is released; weeks: what became available each week. entries: ${EARNINGS_PAGE_SIZE} per page, newest first; ` +
          `pass nextCursor as cursor for the next page. ${ledgerRules}`,
        querystring: earningsQuery,
        response: { 200: dataOf(earnings), ...errorResponses },
      },
    },
    async (request) => ({ success: true as const, data: await earningsOf(app.db, currentUser(request).id, request.query.cursor) }),
  );

  app.get(
    '/me/earnings/statement',
    {
      config: { access: ['sell'] },
      schema: {
        tags: ['earnings'],
        summary: 'Your statement for a month, as CSV (seller)',
        description: `Every entry of the month (UTC), oldest first: date, what happened, the sale, the balance it moved and the amount in dollars. ${ledgerRules}`,
        querystring: statementQuery,
        produces: ['text/csv'],
        response: { 200: z.string().describe('text/csv'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const entries = await statementOf(app.db, currentUser(request).id, request.query.month);
      const lines = [
        statementTexts.columns.map(csvField).join(','),
        ...entries.map((entry) =>
          [
            entry.createdAt,
            statementTexts.kinds[entry.kind],
            entry.productName ?? '',
            statementTexts.accounts[entry.account],
            (entry.amountCents / 100).toFixed(2),
          ]
            .map(csvField)
            .join(','),
        ),
      ];
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="statement-${request.query.month}.csv"`)
        .send(`${lines.join('\r\n')}\r\n`);
    },
  );

  app.get(
    '/admin/finance',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['earnings'],
        summary: 'The marketplace’s money: held, fees, payouts, refunds, open problems and the ledger’s balance check (admin)',
        description: `balanced is true when the sum of every entry of the ledger is 0 (ledgerSumCents). openProblems: the buyers’ reports waiting for an admin, oldest first. ${ledgerRules}`,
        response: { 200: dataOf(financeOverview), ...errorResponses },
      },
    },
    async () => ({ success: true as const, data: await readFinanceOverview(app.db) }),
  );
};
