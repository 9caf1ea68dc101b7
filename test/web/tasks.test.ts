import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, launchBrowser, openPage, screenshot, seriousAxeViolations, signIn, pageOverflow } from '../support/browser.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { hasStatus, newDataset, startTask, waitForTask } from '../support/tasks.js';
import { testCreationJob } from '../support/test-jobs.js';

let server: TestServer;
let browser: Browser;
let user: TestUser;
let alpha: string;
let beta: string;
/** alpha's creation: long enough to be aborted through the page. */
let running: string;
/** beta's creation that fails after a few seconds, and again the same way when retried. */
let failing: string;

const RETRY_REFUSED = 'Task cannot be retried: only FAILED or ABORTED tasks can be retried, this one is RUNNING';

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer({ jobs: [testCreationJob] }), launchBrowser()]);
  user = await server.createUser();
  [alpha, beta] = await Promise.all([newDataset(server, user, 'alpha'), newDataset(server, user, 'beta')]);
  running = await startTask(server, user, alpha, { steps: 300, stepMs: 100 });
  failing = await startTask(server, user, beta, { steps: 30, stepMs: 100, failAtStep: 30 });
  const done = await startTask(server, user, beta, { steps: 1, stepMs: 1 });
  // A finished media addition, written as a row: a real one needs an ingested dataset, and the list only reads rows.
  await server.loupe.container.database.db
    .insertInto('tasks')
    .values({
      dataset_id: alpha,
      task_type: 'MEDIA_ADDITION',
      status: 'COMPLETED',
      status_message: 'Added 2 media',
      progress_percentage: 100,
      error_message: null,
      created_by: user.user_id,
      config: '{}',
      start_time: new Date(Date.now() - 3_600_000),
      end_time: new Date(Date.now() - 3_540_000),
      worker_instance: null,
      job_locked_by: null,
    })
    .execute();
  await Promise.all([waitForTask(server, user, beta, done, hasStatus('COMPLETED')), waitForTask(server, user, alpha, running, hasStatus('RUNNING'))]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const table = (page: Page) => page.getByRole('table', { name: 'Tasks' });
/** The body rows' first cells (the dataset names), in order. */
const datasetColumn = (page: Page) => table(page).getByRole('row').locator('td:first-child').allTextContents();
const rowCount = async (page: Page) => (await table(page).getByRole('row').count()) - 1;

describe('web app: Task Manager', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPage(browser, server);
    await signIn(page, user, '/tasks');
  });

  it('lists the tasks of both datasets, filters by type and status, and sorts by a column header', async () => {
    await table(page).waitFor();
    await expect.poll(() => rowCount(page)).toBe(4);
    expect((await datasetColumn(page)).sort()).toEqual(['alpha', 'alpha', 'beta', 'beta']);
    expect(await page.getByRole('link', { name: 'alpha' }).first().getAttribute('href')).toBe(`/datasets/${alpha}`);
    expect(await page.getByRole('progressbar', { name: 'Progress of the media addition of alpha' }).getAttribute('value')).toBe('100');
    await screenshot(page, 'tasks');

    await page.getByLabel('Type').selectOption('MEDIA_ADDITION');
    await expect.poll(() => rowCount(page)).toBe(1);
    expect(new URL(page.url()).search).toBe('?task_type=MEDIA_ADDITION');
    expect(await table(page).getByRole('row').nth(1).textContent()).toContain('Added 2 media');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => rowCount(page)).toBe(4);
    expect(new URL(page.url()).search).toBe('');
    await page.getByLabel('Status').selectOption('COMPLETED');
    await expect.poll(() => rowCount(page)).toBe(2);
    expect((await datasetColumn(page)).sort()).toEqual(['alpha', 'beta']);

    const datasetHeader = page.getByRole('columnheader', { name: 'Dataset' });
    expect(await datasetHeader.getAttribute('aria-sort')).toBe('none');
    expect(await page.getByRole('columnheader', { name: 'Start' }).getAttribute('aria-sort')).toBe('descending');
    await datasetHeader.getByRole('button').click();
    await expect.poll(() => datasetColumn(page)).toEqual(['beta', 'alpha']);
    expect(await datasetHeader.getAttribute('aria-sort')).toBe('descending');
    await datasetHeader.getByRole('button').click();
    await expect.poll(() => datasetColumn(page)).toEqual(['alpha', 'beta']);
    expect(await datasetHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(new URL(page.url()).searchParams.get('sort_order')).toBe('asc');
    // The URL alone gives the same page back.
    await page.reload();
    await expect.poll(() => datasetColumn(page)).toEqual(['alpha', 'beta']);
    expect(await page.getByLabel('Status').inputValue()).toBe('COMPLETED');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('aborts a running creation after a confirmation, follows it to ABORTED, then retries it', async () => {
    await page.goto('/tasks?dataset_name=alpha&task_type=DATASET_CREATION');
    await page.getByRole('button', { name: 'Abort the creation of alpha' }).click();
    const dialog = page.getByRole('dialog', { name: 'Abort the creation of alpha?' });
    await dialog.waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Abort task' }).click();
    await table(page).getByText('ABORTED', { exact: true }).waitFor();
    expect((await waitForTask(server, user, alpha, running, () => true)).status).toBe('ABORTED');

    await page.getByRole('button', { name: 'Retry the creation of alpha' }).click();
    // Followed every 2 s while it runs again: the Abort button comes back once it is live.
    await page.getByRole('button', { name: 'Abort the creation of alpha' }).waitFor();
    expect(['INITIALIZING', 'RUNNING']).toContain((await waitForTask(server, user, alpha, running, () => true)).status);
    await waitForTask(server, user, alpha, running, hasStatus('RUNNING'));
    await table(page).getByText('RUNNING', { exact: true }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('shows the API detail when a retry is refused because the task already runs again', async () => {
    await waitForTask(server, user, beta, failing, hasStatus('FAILED'));
    await page.goto('/tasks?task_status=FAILED');
    const retry = page.getByRole('button', { name: 'Retry the creation of beta' });
    await retry.waitFor();
    expect(await table(page).getByText('test job failed at step 30').count()).toBe(1);
    // Someone else retries it meanwhile; this page shows only FAILED tasks, so it does not follow it.
    expect((await server.api(user.token, 'POST', `/api/v1/tasks/${failing}/retry`)).status).toBe(200);
    await waitForTask(server, user, beta, failing, hasStatus('RUNNING'));
    await retry.click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(RETRY_REFUSED);
  });

  it('fits a phone: the table scrolls inside its frame, the page does not', async () => {
    await page.setViewportSize(PHONE);
    await page.goto('/tasks');
    await table(page).waitFor();
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'tasks-phone');
  });
});
