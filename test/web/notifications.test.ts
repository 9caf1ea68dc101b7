import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot, seriousAxeViolations, signIn, overflowOnPhone } from '../support/browser.js';
import { createDataset, form, photo } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';

let server: TestServer;
let browser: Browser;
let user: TestUser;
let datasetId: string;

const saveView = async (name: string, filters: string) => {
  const res = await server.api(user.token, 'POST', `/api/v1/dataset/${datasetId}/views${filters}`, { name, monitoring_enabled: true, alerting_enabled: true });
  expect(res.status, res.text).toBe(200);
};
const bell = (page: Page, unread: number) => page.getByRole('link', { name: `Notifications, ${unread} unread` });

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ env: { ALERT_SWEEP_INTERVAL_SECONDS: '1' } }), launchBrowser()]);
  user = await server.createUser();
  ({ datasetId } = await createDataset(server, user, 'alerts', [[photo('dog.jpg')]]));
  // Two monitored, alerting views that the coming batch matches: two notifications.
  await saveView('coffee', '?file_name=coffee');
  await saveView('everything', '');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('web app: notifications', () => {
  let page: Page;

  it('the bell counts a new alert as it happens, over the stream, without reloading the page', async () => {
    page = await openPage(browser, server);
    await signIn(page, user, '/tasks');
    await bell(page, 0).waitFor();
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    // Nothing polls: while nothing happens, the page asks nothing about notifications.
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/v1/notifications/unread-count')) asked.push(request.url());
    });
    await page.waitForTimeout(2_500);
    expect(asked).toEqual([]);

    const added = await server.api(user.token, 'POST', `/api/v1/dataset/${datasetId}/add_media`, form([photo('coffee.png')]));
    expect(added.status, added.text).toBe(202);
    await bell(page, 2).waitFor({ timeout: 90_000 });
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(asked.length).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('lists the alerts, marks one read, then all, and the bell follows', async () => {
    await bell(page, 2).click();
    await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    const list = page.getByRole('list', { name: 'Notifications' });
    await list.waitFor();
    expect(await list.getByRole('listitem').count()).toBe(2);
    const coffee = list.getByRole('listitem').filter({ hasText: 'coffee' });
    expect(await coffee.textContent()).toContain('1 new match in alerts');
    expect(await coffee.getByRole('link', { name: 'alerts' }).getAttribute('href')).toBe(`/datasets/${datasetId}`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'notifications');
    expect(await overflowOnPhone(page)).toBeLessThanOrEqual(0);

    await coffee.getByRole('button', { name: 'Mark read: coffee in alerts' }).click();
    await bell(page, 1).waitFor();
    await coffee.getByText('Read', { exact: true }).waitFor();
    expect((await server.api(user.token, 'GET', '/api/v1/notifications/unread-count')).body).toBe(1);

    await page.getByLabel('Unread only').check();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    expect(await list.getByRole('listitem').textContent()).toContain('everything');
    expect(new URL(page.url()).search).toBe('?unread=1');

    await page.getByRole('button', { name: 'Mark all read' }).click();
    await bell(page, 0).waitFor();
    await page.getByText('No unread notifications.').waitFor();
    expect((await server.api(user.token, 'GET', '/api/v1/notifications/unread-count')).body).toBe(0);
    expect(await page.getByRole('button', { name: 'Mark all read' }).isDisabled()).toBe(true);
  });
});
