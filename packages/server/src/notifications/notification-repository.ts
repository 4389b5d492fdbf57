import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Notification, NotificationSettings } from '@furniture/contract';
import type { Executor } from '../db/client.ts';
import { notifications, notificationSettings } from '../db/schema/index.ts';

export function toNotification(row: typeof notifications.$inferSelect): Notification {
  return {
    _id: row.id,
    kind: row.kind,
    text: row.text,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
  };
}

export async function listNotifications(db: Executor, userId: string, limit: number, offset: number) {
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit)
    .offset(offset);
  return rows.map(toNotification);
}

export async function countUnread(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row!.count;
}

/** Marks the person's own notifications read: these ids, or all of them. Others' ids are ignored. */
export async function markNotificationsRead(db: Executor, userId: string, ids: string[] | undefined) {
  await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), ids ? inArray(notifications.id, ids) : undefined));
}

/** The settings of a person who saved none: e-mail each notification. */
export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = { email: true, digest: false };

/** A person's settings from their row, if they saved one. */
export const settingsFrom = (row: { email: boolean; digest: boolean } | null | undefined): NotificationSettings => ({
  email: row?.email ?? DEFAULT_NOTIFICATION_SETTINGS.email,
  digest: row?.digest ?? DEFAULT_NOTIFICATION_SETTINGS.digest,
});

export async function settingsOf(db: Executor, userId: string): Promise<NotificationSettings> {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  return settingsFrom(row);
}

export async function saveSettings(db: Executor, userId: string, settings: NotificationSettings) {
  await db
    .insert(notificationSettings)
    .values({ userId, ...settings })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: settings });
}
