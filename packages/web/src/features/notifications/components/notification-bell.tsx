import { notificationScreenTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { notificationsQuery } from '../api/notifications.ts';

/** The bell in the navbar, with the number of unread notifications; it rises live. */
export function NotificationBell() {
  const unread = useQuery(notificationsQuery()).data?.unread ?? 0;
  return (
    <Link to={paths.dashboard.notifications.getHref()} className="btn btn-ghost btn-sm btn-circle indicator" aria-label={notificationScreenTexts.bell(unread)}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M15 17h5l-1.4-1.4A2 2 0 0 1 18 14.2V11a6 6 0 1 0-12 0v3.2a2 2 0 0 1-.6 1.4L4 17h5m6 0a3 3 0 1 1-6 0" />
      </svg>
      {unread > 0 && (
        <span className="badge badge-xs badge-secondary indicator-item" data-testid="bell-count">
          {unread}
        </span>
      )}
    </Link>
  );
}
