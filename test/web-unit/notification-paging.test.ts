import { describe, expect, it } from 'vitest';
import { bellLabel, notificationPageFromParams, notificationPageToParams, rangeText } from '../../web/src/notifications/notification-paging.js';

const parse = (search: string) => notificationPageFromParams(new URLSearchParams(search));

describe('notification paging', () => {
  it('reads the offset and the unread-only switch from the URL, and writes defaults as nothing', () => {
    expect(parse('')).toEqual({ offset: 0, unreadOnly: false });
    expect(notificationPageToParams(parse('')).toString()).toBe('');
    expect(parse('offset=40&unread=1')).toEqual({ offset: 40, unreadOnly: true });
    expect(notificationPageToParams({ offset: 40, unreadOnly: true }).toString()).toBe('offset=40&unread=1');
  });

  it('puts an offset on a page boundary and ignores a bad one', () => {
    expect(parse('offset=45').offset).toBe(40);
    expect(parse('offset=-5').offset).toBe(0);
    expect(parse('offset=x').offset).toBe(0);
  });

  it('says which notifications a page shows', () => {
    expect(rangeText(20, 20, 45)).toBe('Showing 21–40 of 45');
    expect(rangeText(40, 5, 45)).toBe('Showing 41–45 of 45');
    expect(rangeText(0, 0, 0)).toBe('');
  });

  it('names the bell with the unread count once known', () => {
    expect(bellLabel(undefined)).toBe('Notifications');
    expect(bellLabel(2)).toBe('Notifications, 2 unread');
    expect(bellLabel(0)).toBe('Notifications, 0 unread');
  });
});
