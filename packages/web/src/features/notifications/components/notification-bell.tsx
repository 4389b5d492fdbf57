import { notificationScreenTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { useDisclosureMenu } from '../../../lib/use-disclosure-menu.ts';
import { notificationsQuery, useMarkNotificationsRead } from '../api/notifications.ts';
import { TimeStamp } from '../../../components/time-stamp.tsx';

/** How many of the newest notifications the bell's panel shows; "See all" leads to the rest. */
const BELL_LIST_LENGTH = 5;

/**
 * The bell in the navbar, with the number of unread notifications (it rises live). It opens the
 * newest few in place; following one marks it read.
 */
export function NotificationBell() {
  const { data } = useQuery(notificationsQuery());
  const markRead = useMarkNotificationsRead();
  const menu = useDisclosureMenu<HTMLElement, HTMLDetailsElement>();
  const unread = data?.unread ?? 0;
  const newest = data?.data.slice(0, BELL_LIST_LENGTH) ?? [];
  const run = (ids?: string[]) => markRead.mutateAsync(ids).catch((error: unknown) => notify.error(errorMessage(error)));

  return (
    <details ref={menu.regionRef} className="dropdown dropdown-end" open={menu.open} onToggle={(event) => menu.setOpen(event.currentTarget.open)}>
      <summary
        ref={menu.toggleRef}
        className="btn btn-ghost btn-sm btn-circle indicator"
        aria-label={notificationScreenTexts.bell(unread)}
        aria-expanded={menu.open}
        aria-controls={menu.menuId}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M15 17h5l-1.4-1.4A2 2 0 0 1 18 14.2V11a6 6 0 1 0-12 0v3.2a2 2 0 0 1-.6 1.4L4 17h5m6 0a3 3 0 1 1-6 0" />
        </svg>
        {unread > 0 && (
          <span className="badge badge-xs badge-secondary indicator-item" data-testid="bell-count">
            {unread}
          </span>
        )}
      </summary>
      {/* Drawn only while open: a closed panel's links would be a second copy of the notifications on every page. */}
      {menu.open && (
        <section
          id={menu.menuId}
          aria-label={notificationScreenTexts.title}
          className="dropdown-content z-30 mt-2 flex w-80 flex-col gap-2 rounded-box bg-base-100 p-3 shadow-lg max-sm:fixed max-sm:inset-x-2 max-sm:top-14 max-sm:w-auto"
        >
          {newest.length === 0 ? (
            <p className="text-sm">{notificationScreenTexts.none}</p>
          ) : (
            <ul className="flex flex-col gap-1">
              {newest.map((item) => (
                <li key={item._id}>
                  <Link
                    to={item.link}
                    className={`flex flex-col rounded p-2 text-sm hover:bg-base-200 ${item.readAt ? '' : 'bg-base-200 font-semibold'}`}
                    onClick={() => {
                      menu.setOpen(false);
                      if (!item.readAt) void run([item._id]);
                    }}
                  >
                    {!item.readAt && <span className="sr-only">{notificationScreenTexts.unreadLabel}: </span>}
                    <span>{item.text}</span>
                    <TimeStamp iso={item.createdAt} />
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Link className="btn btn-sm btn-primary" to={paths.dashboard.notifications.getHref()} onClick={() => menu.setOpen(false)}>
              {notificationScreenTexts.seeAll}
            </Link>
            {unread > 0 && (
              <button type="button" className="btn btn-sm btn-ghost" disabled={markRead.isPending} onClick={() => void run()}>
                {notificationScreenTexts.markAllRead}
              </button>
            )}
          </div>
        </section>
      )}
    </details>
  );
}
