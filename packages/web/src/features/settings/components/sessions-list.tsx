import { accountTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../../components/spinner.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { accountSessionsQuery, useEndSession } from '../api/account.ts';

const { settings } = accountTexts;

/** Where the account is signed in, with a way to sign out each other session or all of them. */
export function SessionsList() {
  const { data: sessions } = useQuery(accountSessionsQuery());
  const end = useEndSession();
  if (!sessions) return <Spinner />;

  async function signOut(id: string | null) {
    try {
      notify.success((await end.mutateAsync(id)).message);
    } catch (error) {
      notify.error(errorMessage(error));
    }
  }

  const others = sessions.filter((session) => !session.current);
  return (
    <div className="flex max-w-xl flex-col gap-3">
      <ul className="flex flex-col gap-2">
        {sessions.map((session) => (
          <li key={session._id} className="flex flex-wrap items-center gap-2 rounded-box border border-base-300 p-3">
            <div className="flex-1">
              <p className="font-semibold">
                {session.device}
                {session.current && <span className="badge badge-sm badge-primary ml-2">{settings.thisDevice}</span>}
              </p>
              <p className="text-sm">
                {session.address ?? settings.unknownAddress} · {settings.lastSeen(formatDateTime(session.lastSeenAt))}
              </p>
            </div>
            {!session.current && (
              <button type="button" className="btn btn-sm btn-outline" disabled={end.isPending} onClick={() => void signOut(session._id)}>
                <span>{settings.signOutSession}</span>
                <span className="sr-only">: {session.device}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <button type="button" className="btn btn-sm btn-outline self-start" disabled={end.isPending} onClick={() => void signOut(null)}>
          {settings.signOutOthers}
        </button>
      )}
    </div>
  );
}
