import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, unwrap } from '../api/client';
import { NOTIFICATIONS_PER_PAGE, type NotificationPage } from './notification-paging';

const STREAM_URL = '/api/v1/notifications/stream';

/**
 * The one notification stream of the tab (used once, in the Shell): each `notification` event refreshes the
 * unread count and the list. EventSource reconnects by itself and sends Last-Event-ID, so the server replays
 * what was missed; nothing polls.
 */
export function useNotificationStream(): void {
  const client = useQueryClient();
  useEffect(() => {
    const source = new EventSource(STREAM_URL, { withCredentials: true });
    const refresh = () => void client.invalidateQueries({ queryKey: ['notifications'] });
    source.addEventListener('notification', refresh);
    return () => {
      source.removeEventListener('notification', refresh);
      source.close();
    };
  }, [client]);
}

export function useUnreadCount() {
  return useQuery({
    queryKey: ['notifications', 'unread-count'],
    queryFn: () => unwrap(api.GET('/api/v1/notifications/unread-count')),
    // The stream says when it changes.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useNotificationList(page: NotificationPage) {
  const query = { limit: NOTIFICATIONS_PER_PAGE, offset: page.offset, unread_only: page.unreadOnly };
  return useQuery({
    queryKey: ['notifications', 'list', query],
    queryFn: () => unwrap(api.GET('/api/v1/notifications', { params: { query } })),
    placeholderData: keepPreviousData,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Mark one notification read (by id) or all of them (no id); the count and the list are read again after. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id?: string) =>
      id
        ? unwrap(api.POST('/api/v1/notifications/{notification_id}/read', { params: { path: { notification_id: id } } }))
        : unwrap(api.POST('/api/v1/notifications/read-all')),
    onSettled: () => client.invalidateQueries({ queryKey: ['notifications'] }),
  });
}
