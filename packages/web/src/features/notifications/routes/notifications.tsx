import { notificationScreenTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Spinner } from '../../../components/spinner.tsx';
import { TimeStamp } from '../../../components/time-stamp.tsx';
import { paths } from '../../../config/paths.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { notificationsQuery, useMarkNotificationsRead } from '../api/notifications.ts';

/** The notifications page: newest first, unread ones marked, each with a link to where it happened. */
export function NotificationsRoute() {
  const { data, isPending } = useQuery(notificationsQuery());
  const markRead = useMarkNotificationsRead();
  const run = (ids?: string[]) => markRead.mutateAsync(ids).catch((error: unknown) => notify.error(errorMessage(error)));

  return (
    <section aria-labelledby="notifications-title">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-2">
        <h1 id="notifications-title" className="text-2xl font-bold">
          {notificationScreenTexts.title}
        </h1>
        <div className="flex gap-2">
          <Link className="btn btn-sm btn-ghost" to={paths.dashboard.notificationSettings.getHref()}>
            {notificationScreenTexts.settingsLink}
          </Link>
          {(data?.unread ?? 0) > 0 && (
            <button type="button" className="btn btn-sm btn-outline" disabled={markRead.isPending} onClick={() => void run()}>
              {notificationScreenTexts.markAllRead}
            </button>
          )}
        </div>
      </div>
      {isPending ? (
        <Spinner />
      ) : !data?.data.length ? (
        <p>{notificationScreenTexts.none}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {data.data.map((item) => (
            <li key={item._id} className={`rounded-box flex flex-wrap items-center justify-between gap-2 p-3 ${item.readAt ? 'bg-base-100' : 'bg-base-200'}`}>
              <div className="flex flex-col">
                <Link className="link" to={item.link}>
                  {!item.readAt && <span className="badge badge-sm badge-secondary mr-2">{notificationScreenTexts.unreadLabel}</span>}
                  {item.text}
                </Link>
                <TimeStamp iso={item.createdAt} />
              </div>
              {!item.readAt && (
                <button type="button" className="btn btn-xs btn-ghost" aria-label={`${notificationScreenTexts.markRead}: ${item.text}`} onClick={() => void run([item._id])}>
                  {notificationScreenTexts.markRead}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
