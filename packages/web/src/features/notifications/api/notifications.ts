import type { DataResponse, NotificationList, NotificationSettings } from '@furniture/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { notificationKeys } from '../../../lib/query-keys.ts';

/** GET /notifications: the newest notifications and how many are unread (the bell's count). */
export const notificationsQuery = () =>
  queryOptions({
    queryKey: notificationKeys.all,
    queryFn: ({ signal }) =>
      api<NotificationList>('/notifications', { query: { limit: '50' }, signal }),
    meta: { private: true },
  });

export const notificationSettingsQuery = () =>
  queryOptions({
    queryKey: notificationKeys.settings,
    queryFn: ({ signal }) => api<DataResponse<NotificationSettings>>('/me/notification-settings', { signal }).then((r) => r.data),
    meta: { private: true },
  });

/** POST /notifications/read: these ids, or every notification when none are given. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) => api('/notifications/read', { method: 'POST', json: ids ? { ids } : {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: NotificationSettings) => api('/me/notification-settings', { method: 'PUT', json: settings }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.settings }),
  });
}
