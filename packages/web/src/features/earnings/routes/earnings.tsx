import { earningsTexts, formatCents, getPaidTexts, ledgerMessages, statementTexts, type Earnings, type PayoutAccount } from '@furniture/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { downloadStatement, earningsQuery, payoutAccountQuery, payoutsQuery, usePayOut, useSetUpPayouts } from '../api/earnings.ts';

/** The weekly series as plain SVG bars, each with its amount for screen readers and on hover; a sentence while every week is empty. */
function WeeklyChart({ weeks }: { weeks: Earnings['weeks'] }) {
  if (weeks.every((week) => week.cents === 0)) return <p>{earningsTexts.noWeeklyEarnings(weeks.length)}</p>;
  const highest = Math.max(1, ...weeks.map((week) => week.cents));
  const barWidth = 20;
  const height = 100;
  return (
    <svg role="img" aria-label={earningsTexts.chartLabel(weeks.length)} viewBox={`0 0 ${weeks.length * barWidth} ${height}`} className="h-32 w-full max-w-xl">
      {weeks.map((week, index) => {
        const barHeight = Math.max(week.cents > 0 ? 2 : 0, (week.cents / highest) * (height - 4));
        return (
          <rect key={week.week} x={index * barWidth + 3} y={height - barHeight} width={barWidth - 6} height={barHeight} className="fill-primary">
            <title>{earningsTexts.weekOf(formatDate(week.week, 'UTC'), formatCents(week.cents))}</title>
          </rect>
        );
      })}
    </svg>
  );
}

/** Where the payouts go: the simulated payout provider, or the seller's Stripe account and its set-up. */
function GetPaid({ account }: { account: PayoutAccount }) {
  const setUp = useSetUpPayouts();
  async function startSetUp() {
    try {
      await setUp.mutateAsync();
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }
  return (
    <section aria-labelledby="get-paid-title" className="flex flex-col items-start gap-2">
      <h2 id="get-paid-title" className="text-lg font-semibold">
        {getPaidTexts.title}
      </h2>
      {account.provider === 'simulated' ? (
        <p>{getPaidTexts.simulated}</p>
      ) : (
        <>
          <p>
            {getPaidTexts.status}: <span className="badge h-auto" data-testid="payout-account-status">{getPaidTexts.statuses[account.status]}</span>
          </p>
          <p>{getPaidTexts.explanations[account.status]}</p>
          {account.status !== 'ready' && (
            <button type="button" className="btn btn-outline" disabled={setUp.isPending || setUp.isSuccess} onClick={() => void startSetUp()}>
              {account.status === 'not-set-up' ? getPaidTexts.setUp : getPaidTexts.continueSetUp}
            </button>
          )}
        </>
      )}
    </section>
  );
}

/** Why "Pay out now" cannot be used now, or undefined. */
function payOutBlocker(availableCents: number, account: PayoutAccount | undefined): string | undefined {
  if (availableCents <= 0) return earningsTexts.nothingAvailable;
  if (account?.status === 'not-set-up') return ledgerMessages.payoutAccountNotSetUp;
  if (account?.status === 'details-needed') return ledgerMessages.payoutAccountDetailsNeeded;
  return undefined;
}

/** The previous month, as the statement's default: the last complete one. */
function lastMonth(): string {
  const now = new Date();
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return month.toISOString().slice(0, 7);
}

/** The seller's money: pending, available and paid out, where it comes from, and the payouts. */
export function EarningsRoute() {
  const earnings = useInfiniteQuery(earningsQuery());
  const payouts = useQuery(payoutsQuery());
  const payOut = usePayOut();
  const payoutAccount = useQuery(payoutAccountQuery());
  const [month, setMonth] = useState(lastMonth);

  async function requestPayout() {
    try {
      notify.success((await payOut.mutateAsync()).message);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  async function download() {
    try {
      await downloadStatement(month);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  const first = earnings.data?.pages[0];
  const blocker = first && payOutBlocker(first.availableCents, payoutAccount.data);
  const entries = earnings.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <section aria-labelledby="earnings-title" className="flex flex-col gap-8">
      <h1 id="earnings-title" className="text-2xl font-bold">
        {earningsTexts.title}
      </h1>
      {!first ? (
        <Spinner />
      ) : (
        <>
          <div className="flex flex-col gap-4">
            <dl className="stats stats-vertical sm:stats-horizontal border border-base-300">
              {(
                [
                  ['pending', earningsTexts.pending, first.pendingCents],
                  ['available', earningsTexts.available, first.availableCents],
                  ['paid-out', earningsTexts.paidOut, first.paidOutCents],
                ] as const
              ).map(([key, label, cents]) => (
                <div key={key} className="stat" data-testid={`earnings-${key}`}>
                  <dt className="stat-title">{label}</dt>
                  <dd className="stat-value text-2xl">{formatCents(cents)}</dd>
                </div>
              ))}
            </dl>
            <div className="flex flex-col items-start gap-2">
              <button
                type="button"
                className="btn btn-primary"
                disabled={Boolean(blocker) || payOut.isPending}
                aria-describedby={blocker ? 'pay-out-blocked' : undefined}
                onClick={() => void requestPayout()}
              >
                {earningsTexts.payOut}
              </button>
              {blocker && (
                <p id="pay-out-blocked" className="text-sm">
                  {blocker}
                </p>
              )}
            </div>
          </div>

          {payoutAccount.data && <GetPaid account={payoutAccount.data} />}

          {first.held.length > 0 && (
            <section aria-labelledby="held-title">
              <h2 id="held-title" className="mb-3 text-lg font-semibold">
                {earningsTexts.heldTitle}
              </h2>
              <ul className="flex flex-col gap-2">
                {first.held.map((sale) => (
                  <li key={sale._id}>
                    <span className="font-semibold">{sale.productName}</span> {formatCents(sale.amountCents)}:{' '}
                    {sale.fundsState === 'frozen'
                      ? earningsTexts.frozen
                      : sale.releaseAt
                        ? earningsTexts.releasesOn(formatDateTime(sale.releaseAt))
                        : earningsTexts.releaseAfterHandover}
                  </li>
                ))}
              </ul>
            </section>
          )}

          <section aria-labelledby="chart-title">
            <h2 id="chart-title" className="mb-3 text-lg font-semibold">
              {earningsTexts.chartTitle}
            </h2>
            <WeeklyChart weeks={first.weeks} />
          </section>

          <section aria-labelledby="entries-title">
            <h2 id="entries-title" className="mb-3 text-lg font-semibold">
              {earningsTexts.entriesTitle}
            </h2>
            {entries.length === 0 ? (
              <p>{earningsTexts.noEntries}</p>
            ) : (
              // Focusable, so that a keyboard can scroll the table sideways on a narrow screen.
              <div className="overflow-x-auto" role="region" aria-labelledby="entries-title" tabIndex={0}>
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">{earningsTexts.date}</th>
                      <th scope="col">{earningsTexts.what}</th>
                      <th scope="col">{earningsTexts.sale}</th>
                      <th scope="col">{earningsTexts.balance}</th>
                      <th scope="col" className="text-right">
                        {earningsTexts.amount}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {entries.map((entry) => (
                      <tr key={entry._id}>
                        <td>{formatDateTime(entry.createdAt)}</td>
                        <td>{statementTexts.kinds[entry.kind]}</td>
                        <td>{entry.productName ?? ''}</td>
                        <td>{statementTexts.accounts[entry.account]}</td>
                        <td className="text-right">{formatCents(entry.amountCents)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {earnings.hasNextPage && (
              <button type="button" className="btn btn-outline btn-sm mt-3" disabled={earnings.isFetchingNextPage} onClick={() => void earnings.fetchNextPage()}>
                {earningsTexts.loadMore}
              </button>
            )}
          </section>
        </>
      )}

      <section aria-labelledby="payouts-title">
        <h2 id="payouts-title" className="mb-3 text-lg font-semibold">
          {earningsTexts.payoutsTitle}
        </h2>
        {!payouts.data ? (
          <Spinner />
        ) : payouts.data.length === 0 ? (
          <p>{earningsTexts.noPayouts}</p>
        ) : (
          <ul className="flex flex-col gap-2" aria-label={earningsTexts.payoutsTitle}>
            {payouts.data.map((payout) => (
              <li key={payout._id}>
                {formatDateTime(payout.createdAt)}: <span className="font-semibold">{formatCents(payout.amountCents)}</span>{' '}
                <span className="badge h-auto">{earningsTexts.payoutStatus[payout.status]}</span>
                {payout.reference && ` ${earningsTexts.reference}: ${payout.reference}`}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="statement-title">
        <h2 id="statement-title" className="mb-3 text-lg font-semibold">
          {earningsTexts.statementTitle}
        </h2>
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1">
            <span>{earningsTexts.month}</span>
            <input type="month" className="input" value={month} required onChange={(event) => setMonth(event.target.value)} />
          </label>
          <button type="button" className="btn btn-outline" disabled={!month} onClick={() => void download()}>
            {earningsTexts.downloadStatement}
          </button>
        </div>
      </section>
    </section>
  );
}
