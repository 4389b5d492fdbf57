/*
 * Apart from the schemas of notifications.ts, so that pages which only show these words do not download zod
 * (docs/decisions/0026).
 */
/** Words of the bell, the notifications page and the settings page. */
export const notificationScreenTexts = {
  bell: (unread: number) => (unread === 0 ? 'Notifications' : `Notifications, ${unread} unread`),
  title: 'Notifications',
  none: 'Nothing has happened yet.',
  markRead: 'Mark read',
  markAllRead: 'Mark all read',
  seeAll: 'See all',
  unreadLabel: 'Unread',
  settingsLink: 'E-mail settings',
  settingsTitle: 'Notification settings',
  emailLabel: 'Send me e-mails about what happens',
  digestLabel: 'One e-mail a day instead of one for each notification',
  save: 'Save settings',
  saved: 'Your settings are saved.',
} as const;
