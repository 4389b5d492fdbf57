import { accountTexts, type MessageResponse } from '@furniture/contract';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '../../../components/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { errorMessage } from '../../../lib/notify.ts';

type Outcome = { ok: boolean; message: string };

/** The page of the link e-mailed to a new address: makes it the account's e-mail as it opens, signed in or not. */
export function ChangeEmailRoute() {
  const { reloadUser } = useAuth();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const sent = useRef(false);
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');

  useEffect(() => {
    // The token works once: sent once, even when the page is mounted twice.
    if (sent.current) return;
    sent.current = true;
    if (!token) {
      setOutcome({ ok: false, message: accountTexts.changeEmail.noToken });
      return;
    }
    api<MessageResponse>('/auth/change-email', { method: 'POST', json: { token } })
      .then(async () => {
        await reloadUser();
        setOutcome({ ok: true, message: accountTexts.changeEmail.done });
      })
      .catch((error: unknown) => setOutcome({ ok: false, message: errorMessage(error) }));
  }, [token, reloadUser]);

  return (
    <section className="mx-auto flex max-w-md flex-col gap-4 py-6" aria-labelledby="change-email-title">
      <h1 id="change-email-title" className="text-center text-4xl font-bold">
        {accountTexts.changeEmail.title}
      </h1>
      <div className="card bg-base-100 shadow-xl">
        <div className="card-body gap-4">
          {outcome ? (
            <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? 'alert alert-success' : 'alert alert-error'}>
              {outcome.message}
            </p>
          ) : (
            <Spinner label={accountTexts.changeEmail.working} />
          )}
          <Link to={paths.dashboard.root.getHref()} className="link link-primary w-fit text-sm">
            {accountTexts.verify.toDashboard}
          </Link>
        </div>
      </div>
    </section>
  );
}
