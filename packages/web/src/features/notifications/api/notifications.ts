import type { DataResponse, NotificationList, NotificationSettings } from '@furniture/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /notifications: the newest notifications and how many are unread (the bell's count). */
export const notificationsQuery = () =>
  queryOptions({
    queryKey: ['notifications'],
    queryFn: ({ signal }) =>
      api<NotificationList>('/notifications', { query: { limit: '50' }, signal }),
    meta: { private: true },
  });

export const notificationSettingsQuery = () =>
  queryOptions({
    queryKey: ['notification-settings'],
    queryFn: ({ signal }) => api<DataResponse<NotificationSettings>>('/me/notification-settings', { signal }).then((r) => r.data),
    meta: { private: true },
  });

/** POST /notifications/read: these ids, or every notification when none are given. */
export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) => api('/notifications/read', { method: 'POST', json: ids ? { ids } : {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }),
  });
}

export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: NotificationSettings) => api('/me/notification-settings', { method: 'PUT', json: settings }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['notification-settings'] }),
  });
}
