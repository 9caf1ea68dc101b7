import type { paths } from '../api/schema.js';

export type NotificationList = paths['/api/v1/notifications']['get']['responses'][200]['content']['application/json'];
export type Notification = NotificationList['notifications'][number];

export const NOTIFICATIONS_PER_PAGE = 20;

/** What the notifications page shows, as its URL holds it: an offset in the list and whether only unread ones. */
export interface NotificationPage {
  offset: number;
  unreadOnly: boolean;
}

export function notificationPageFromParams(params: URLSearchParams): NotificationPage {
  const raw = params.get('offset');
  const offset = raw !== null && /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  // Offsets always sit on a page boundary, so Previous and Next land on the same pages whatever the URL said.
  return { offset: offset - (offset % NOTIFICATIONS_PER_PAGE), unreadOnly: params.get('unread') === '1' };
}

export function notificationPageToParams(page: NotificationPage): URLSearchParams {
  const params = new URLSearchParams();
  if (page.offset > 0) params.set('offset', String(page.offset));
  if (page.unreadOnly) params.set('unread', '1');
  return params;
}

/** "Showing 21–40 of 45", or nothing when the page is empty. */
export function rangeText(offset: number, shown: number, total: number): string {
  return shown === 0 ? '' : `Showing ${offset + 1}–${offset + shown} of ${total}`;
}

/** The bell's accessible name: the count while known. */
export function bellLabel(unread: number | undefined): string {
  return unread === undefined ? 'Notifications' : `Notifications, ${unread} unread`;
}
