import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot, seriousAxeViolations, signIn, overflowOnPhone } from '../support/browser.js';
import { createDataset, photo, waitForDataset } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';

let server: TestServer;
let browser: Browser;
let user: TestUser;
let page: Page;
let datasetId: string;
let creationName: string;

const snapshots = async () => (await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/snapshot`)).body as Array<Record<string, any>>;
const rowOf = (name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  user = await server.createUser();
  ({ datasetId } = await createDataset(server, user, 'pets', [[photo('dog.jpg'), photo('coffee.png')]]));
  creationName = (await snapshots())[0]!.snapshot_name;
  page = await openPage(browser, server);
  await signIn(page, user, `/datasets/${datasetId}/snapshots`);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('web app: snapshots tab', () => {
  it('lists the creation snapshot as current, creates a snapshot that becomes current, renames it', async () => {
    await page.getByRole('heading', { name: 'Snapshots', level: 2 }).waitFor();
    await rowOf(creationName).waitFor();
    expect(await rowOf(creationName).getByRole('cell').nth(1).textContent()).toBe('creation');
    expect(await rowOf(creationName).getByRole('rowheader').textContent()).toBe(`${creationName}current`);

    await page.getByLabel('Name', { exact: true }).fill('before-edit');
    await page.getByLabel('Description', { exact: true }).fill('first manual');
    await page.getByRole('button', { name: 'Create snapshot' }).click();
    await rowOf('before-edit').waitFor();
    const cells = await rowOf('before-edit').getByRole('cell').allTextContents();
    expect(cells.slice(0, 6)).toEqual(['first manual', 'manual', cells[2], user.email, '2', '0']);
    expect(await rowOf('before-edit').getByRole('rowheader').textContent()).toBe('before-editcurrent');
    expect(await rowOf(creationName).getByRole('rowheader').textContent()).toBe(creationName);

    await page.getByRole('button', { name: 'Rename before-edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename before-edit' });
    await dialog.getByLabel('Snapshot name').fill('baseline');
    await dialog.getByLabel('Snapshot description').fill('the first manual one');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await rowOf('baseline').waitFor();
    expect((await snapshots()).find((s) => s.snapshot_name === 'baseline')).toMatchObject({ description: 'the first manual one', is_current: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'snapshots-list');
  });

  it('shows the 409 detail when deleting the current snapshot', async () => {
    await page.getByRole('button', { name: 'Delete baseline' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete baseline?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('The current snapshot cannot be deleted; create a new snapshot first');
    expect((await snapshots()).map((s) => s.snapshot_name)).toEqual(['baseline', creationName]);
  });

  it('restores the creation snapshot after a confirmation that says it cannot be undone, and the dataset is READY again', async () => {
    await page.getByRole('button', { name: `Restore ${creationName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Restore ${creationName}?` });
    expect(await dialog.textContent()).toContain('It cannot be undone.');
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await waitFor(async () => ((await snapshots()).find((s) => s.snapshot_name === creationName)?.is_current ? true : undefined), 30_000, 'restored');
    await waitForDataset(server, user, datasetId, ['READY'], 30_000);
    await page.getByText('READY', { exact: true }).waitFor();
    await page.getByText(`${creationName}current`, { exact: true }).waitFor();
    expect(await page.getByText('restoring', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('clones a snapshot and links the new dataset', async () => {
    await page.getByRole('button', { name: 'Clone baseline' }).click();
    const link = page.getByRole('link', { name: 'Open pets (cloned)' });
    await link.waitFor();
    expect(await page.getByRole('status').textContent()).toContain('A new dataset “pets (cloned)” is being made from the snapshot.');
    const datasets = (await server.api(user.token, 'GET', '/api/v1/datasets')).body as Array<Record<string, any>>;
    const clone = datasets.find((d) => d.display_name === 'pets (cloned)');
    expect(clone).toMatchObject({ source_dataset_id: datasetId });
    expect(await link.getAttribute('href')).toBe(`/datasets/${clone!.id}`);
    await link.click();
    await page.getByRole('heading', { name: 'pets (cloned)', level: 1 }).waitFor();
    await waitForDataset(server, user, clone!.id, ['READY'], 30_000);
    await page.getByText('READY', { exact: true }).waitFor();
  });

  it('deletes a snapshot that is not current', async () => {
    await page.goto(`/datasets/${datasetId}/snapshots`);
    await page.getByRole('button', { name: 'Delete baseline' }).click();
    await page.getByRole('dialog', { name: 'Delete baseline?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete baseline' }).waitFor({ state: 'detached' });
    expect((await snapshots()).map((s) => s.snapshot_name)).toEqual([creationName]);    expect(await overflowOnPhone(page)).toBeLessThanOrEqual(0);
  });
});
