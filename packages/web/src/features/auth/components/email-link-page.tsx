import { accountTexts, type MessageResponse } from '@furniture/contract';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Spinner } from '../../../components/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { api } from '../../../lib/api-client.ts';
import { useAuth } from '../../../lib/auth.tsx';
import { errorMessage } from '../../../lib/notify.ts';

type Outcome = { ok: boolean; message: string };

/**
 * The page an e-mailed account link opens (verify an e-mail, change it): it sends the link's token
 * once as it opens, signed in or not, and says how that went.
 */
export function EmailLinkPage({ endpoint, texts }: { endpoint: string; texts: { title: string; noToken: string; done: string; working: string } }) {
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
      setOutcome({ ok: false, message: texts.noToken });
      return;
    }
    api<MessageResponse>(endpoint, { method: 'POST', json: { token } })
      .then(async () => {
        await reloadUser();
        setOutcome({ ok: true, message: texts.done });
      })
      .catch((error: unknown) => setOutcome({ ok: false, message: errorMessage(error) }));
  }, [token, endpoint, texts, reloadUser]);

  return (
    <section className="mx-auto flex max-w-md flex-col gap-4 py-6" aria-labelledby="email-link-title">
      <h1 id="email-link-title" className="text-center text-4xl font-bold">
        {texts.title}
      </h1>
      <div className="card bg-base-100 shadow-xl">
        <div className="card-body gap-4">
          {outcome ? (
            <p role={outcome.ok ? 'status' : 'alert'} className={outcome.ok ? 'alert alert-success' : 'alert alert-error'}>
              {outcome.message}
            </p>
          ) : (
            <Spinner label={texts.working} />
          )}
          <Link to={paths.dashboard.root.getHref()} className="link link-primary w-fit text-sm">
            {accountTexts.verify.toDashboard}
          </Link>
        </div>
      </div>
    </section>
  );
}
