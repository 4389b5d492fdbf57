import { financeTexts, formatCents, protectionTexts, type SaleProblem } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { financeQuery, useDecideProblem, type ProblemDecision } from '../api/finance.ts';

/** The marketplace's money from the ledger, its balance check, and the buyers' problems to decide. */
export function FinanceRoute() {
  const { data: finance } = useQuery(financeQuery());
  const decide = useDecideProblem();
  // Both decisions move money for good: the admin confirms each, with its amount and whom it goes to.
  const [deciding, setDeciding] = useState<{ problem: SaleProblem; decision: ProblemDecision } | undefined>();

  async function confirm() {
    if (!deciding) return;
    try {
      notify.success((await decide.mutateAsync({ id: deciding.problem._id, decision: deciding.decision })).message);
      setDeciding(undefined);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  const question = deciding?.decision === 'release' ? financeTexts.confirmRelease : financeTexts.confirmRefund;
  return (
    <section aria-labelledby="finance-title" className="flex flex-col gap-8">
      <h1 id="finance-title" className="text-2xl font-bold">
        {financeTexts.title}
      </h1>
      {!finance ? (
        <Spinner />
      ) : (
        <>
          <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {(
              [
                ['held', financeTexts.held, formatCents(finance.heldCents)],
                ['fees', financeTexts.fees, formatCents(finance.feesCents)],
                ['paid-out', financeTexts.paidOut, formatCents(finance.paidOutCents)],
                ['payouts', financeTexts.payouts, financeTexts.payoutCounts(finance.payoutsPaid, finance.payoutsFailed)],
                ['refunded', financeTexts.refunded, formatCents(finance.refundedCents)],
              ] as const
            ).map(([key, label, value]) => (
              <div key={key} className="rounded-box border border-base-300 p-4" data-testid={`finance-${key}`}>
                <dt className="text-sm">{label}</dt>
                <dd className="text-xl font-semibold">{value}</dd>
              </div>
            ))}
          </dl>

          <section aria-labelledby="ledger-check-title">
            <h2 id="ledger-check-title" className="mb-2 text-lg font-semibold">
              {financeTexts.ledgerCheck}
            </h2>
            <p role="status" className={`alert ${finance.balanced ? 'alert-success' : 'alert-error'}`}>
              {finance.balanced ? financeTexts.balanced : financeTexts.unbalanced(formatCents(Math.abs(finance.ledgerSumCents)))}
            </p>
          </section>

          <section aria-labelledby="problems-title">
            <h2 id="problems-title" className="mb-3 text-lg font-semibold">
              {financeTexts.problemsTitle}
            </h2>
            {finance.openProblems.length === 0 ? (
              <p>{financeTexts.noProblems}</p>
            ) : (
              <ul className="flex flex-col gap-3" aria-labelledby="problems-title">
                {finance.openProblems.map((problem) => (
                  <li key={problem._id} className="card card-border bg-base-100">
                    <div className="card-body gap-2 p-4">
                      <h3 className="font-semibold">{problem.productName}</h3>
                      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-2">
                        {(
                          [
                            [financeTexts.buyer, problem.buyerName],
                            [financeTexts.seller, problem.sellerName],
                            [financeTexts.amount, formatCents(problem.amountCents)],
                            [financeTexts.money, financeTexts.fundsState[problem.fundsState]],
                            [financeTexts.reason, protectionTexts.reasons[problem.reason]],
                            [financeTexts.reported, formatDateTime(problem.openedAt)],
                          ] as const
                        ).map(([label, value]) => (
                          <div key={label}>
                            <dt className="inline font-semibold">{label}: </dt>
                            <dd className="inline">{value}</dd>
                          </div>
                        ))}
                      </dl>
                      <p className="whitespace-pre-line break-words">{problem.note}</p>
                      <div className="flex flex-wrap gap-2">
                        {problem.fundsState === 'frozen' && (
                          <button
                            type="button"
                            className="btn btn-sm btn-primary"
                            aria-label={`${financeTexts.release}: ${problem.productName}`}
                            onClick={() => setDeciding({ problem, decision: 'release' })}
                          >
                            {financeTexts.release}
                          </button>
                        )}
                        <button
                          type="button"
                          className="btn btn-sm btn-outline"
                          aria-label={`${financeTexts.refund}: ${problem.productName}`}
                          onClick={() => setDeciding({ problem, decision: 'refund' })}
                        >
                          {financeTexts.refund}
                        </button>
                      </div>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
      <Modal
        title={
          deciding
            ? question.title(formatCents(deciding.problem.amountCents), deciding.decision === 'release' ? deciding.problem.sellerName : deciding.problem.buyerName)
            : ''
        }
        open={Boolean(deciding)}
        onClose={() => setDeciding(undefined)}
      >
        <p>{question.body}</p>
        <div className="modal-action">
          <button type="button" className="btn" data-autofocus onClick={() => setDeciding(undefined)}>
            {financeTexts.keep}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={decide.isPending}
            onClick={() => void confirm()}
          >
            {question.confirm}
          </button>
        </div>
      </Modal>
    </section>
  );
}
