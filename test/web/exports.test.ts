import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, screenshot, seriousAxeViolations, signIn, overflowOnPhone } from '../support/browser.js';
import { createDataset, photo } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { readZip } from '../support/zip.js';

let server: TestServer;
let browser: Browser;
let user: TestUser;
let page: Page;
let datasetId: string;

const rowOf = (fileName: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: fileName, exact: true }) });

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  user = await server.createUser();
  ({ datasetId } = await createDataset(server, user, 'pets', [[photo('dog.jpg'), photo('coffee.png')]]));
  page = await openPage(browser, server);
  await signIn(page, user, `/datasets/${datasetId}/exports`);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function startExport(fileName: string, format: 'JSON' | 'Parquet', includeImages: boolean) {
  await page.getByLabel('File name').fill(fileName);
  await page.getByLabel('Format').selectOption({ label: format });
  await page.getByLabel('Include images').setChecked(includeImages);
  await page.getByRole('button', { name: 'Start export' }).click();
  await rowOf(fileName).waitFor();
}

/** The ZIP behind the row's Download link, fetched as a browser would follow the signed link. */
async function download(fileName: string): Promise<Buffer> {
  const link = rowOf(fileName).getByRole('link', { name: `Download ${fileName}` });
  await link.waitFor({ timeout: 30_000 });
  const href = (await link.getAttribute('href'))!;
  const res = await fetch(new URL(href, server.url));
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  return bytes;
}

describe('web app: exports tab', () => {
  it('starts a Parquet export with images, follows it to COMPLETED and downloads the ZIP', async () => {
    await page.getByRole('heading', { name: 'Exports', level: 2 }).waitFor();
    // The suggestion comes from the dataset's name, which may answer after the heading is drawn.
    await expect.poll(() => page.getByLabel('File name').inputValue(), { timeout: 10_000 }).toBe('pets-export');
    await startExport('pets-parquet', 'Parquet', true);
    const entries = await readZip(await download('pets-parquet'));
    expect(entries.has('metadata.parquet')).toBe(true);
    expect([...entries.keys()].filter((name) => name.startsWith('images/'))).toHaveLength(2);
    const cells = await rowOf('pets-parquet').getByRole('cell').allTextContents();
    expect(cells.slice(0, 2)).toEqual(['Parquet', 'yes']);
    expect(cells[3]).toBe('COMPLETED');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('exports JSON without images too, and lists both exports after a reload', async () => {
    await startExport('pets-json', 'JSON', false);
    const entries = await readZip(await download('pets-json'));
    expect([...entries.keys()]).toContain('metadata.json');
    expect([...entries.keys()].some((name) => name.startsWith('images/'))).toBe(false);

    await page.reload();
    await rowOf('pets-json').getByRole('link', { name: 'Download pets-json' }).waitFor();
    await rowOf('pets-parquet').getByRole('link', { name: 'Download pets-parquet' }).waitFor();
    expect(await page.getByRole('rowheader').allTextContents()).toEqual(['pets-json', 'pets-parquet']);
    await screenshot(page, 'exports-tab');
    expect(await overflowOnPhone(page)).toBeLessThanOrEqual(0);
  });

  it('shows the API detail when the dataset is not READY', async () => {
    // A dataset without media yet cannot be exported.
    const created = await server.api(user.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=empty');
    const emptyId = created.body.dataset_id as string;
    const status = (await server.api(user.token, 'GET', `/api/v1/dataset/${emptyId}`)).body.status_new as string;
    await page.goto(`/datasets/${emptyId}/exports`);
    await page.getByRole('button', { name: 'Start export' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(`Export needs the dataset READY; it is ${status}`);
    expect(await page.getByText('No exports started from this browser yet.').count()).toBe(1);
  });
});
