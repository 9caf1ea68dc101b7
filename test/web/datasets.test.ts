import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, launchBrowser, openPage, screenshot, seriousAxeViolations, signIn, pageOverflow } from '../support/browser.js';
import { PHOTOS } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer, waitFor } from '../support/server.js';

let server: TestServer;
let browser: Browser;
let owner: TestUser;
let viewer: TestUser;
let page: Page;
let scratch: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  [owner, viewer] = await Promise.all([server.createUser(), server.createUser()]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-web-datasets-'));
  fs.writeFileSync(path.join(scratch, 'notes.txt'), 'not a photo\n');
  page = await openPage(browser, server);
  await signIn(page, owner, '/datasets');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('link', { name, exact: true }) });
const cellTexts = (p: Page, name: string) => row(p, name).getByRole('cell').allTextContents();
const listed = async (user: TestUser) => (await server.api(user.token, 'GET', '/api/v1/datasets')).body as { id: string; display_name: string; n_objects: number }[];

describe('web app: the datasets page', () => {
  it('says how to start when the user has no datasets', async () => {
    await page.getByRole('heading', { name: 'Datasets', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No datasets yet' }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  it('creates a dataset from three photos, skips what is not media, resumes after a cancel, and follows it to READY without a reload', async () => {
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await page.getByRole('button', { name: 'New dataset' }).click();
    const dialog = page.getByRole('dialog', { name: 'New dataset' });
    await dialog.waitFor();
    await dialog.getByLabel('Dataset name').fill('Holiday photos');
    await dialog.getByLabel('Choose files').setInputFiles([
      ...['dog.jpg', 'horses.jpg', 'kite.jpg'].map((f) => path.join(PHOTOS, f)),
      path.join(scratch, 'notes.txt'),
    ]);
    await dialog.getByText('3 files chosen (1.7 MB)').waitFor();
    expect(await dialog.getByText('Skipped 1 file that is not an image or a video.').count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A slow uplink (about 400 kB/s), so the upload is seen going and can be cancelled midway.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 400_000 });
    await dialog.getByRole('button', { name: 'Create and upload' }).click();
    const bar = dialog.getByRole('progressbar', { name: 'Upload progress' });
    await bar.waitFor();
    await page.waitForFunction(() => {
      const bar = document.querySelector<HTMLProgressElement>('progress[aria-label="Upload progress"]');
      return !!bar && bar.value > 0 && bar.value < bar.max;
    });
    const figures = await dialog.getByText(/of 3 files/).textContent();
    expect(figures).toMatch(/^0 of 3 files · \d+\.\d MB of 1\.7 MB · \d+\.\d MB\/s · (\d+ s|\d+ min \d\d s) left$/);
    await screenshot(page, 'datasets-new-uploading');
    await dialog.getByRole('button', { name: 'Cancel upload' }).click();
    await dialog.getByText('Upload cancelled. Upload again to go on where it stopped.').waitFor();
    expect(await dialog.getByLabel('Dataset name').isDisabled()).toBe(true);

    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await dialog.getByRole('button', { name: 'Retry upload' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'Holiday photos').getByRole('progressbar', { name: 'Holiday photos progress' }).waitFor();
    await row(page, 'Holiday photos').getByText('READY', { exact: true }).waitFor({ timeout: 60_000 });
    // Once nothing listed is busy, the page stops asking.
    const listRequests: string[] = [];
    const countList = (request: { url(): string }) => void (request.url().includes('/api/v1/datasets') && listRequests.push(request.url()));
    page.on('request', countList);
    const quietFrom = Date.now();
    const [created] = await listed(owner);
    expect(created?.display_name).toBe('Holiday photos');
    const cells = await cellTexts(page, 'Holiday photos');
    expect(cells.slice(0, 5)).toEqual(['Holiday photos', 'READY', '3', '0', String(created!.n_objects)]);
    expect(await row(page, 'Holiday photos').getByRole('progressbar').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(await page.getByRole('link', { name: 'Holiday photos' }).getAttribute('href')).toBe(`/datasets/${created!.id}`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'datasets-list');
    await page.waitForTimeout(Math.max(0, 2_500 - (Date.now() - quietFrom)));
    page.off('request', countList);
    expect(listRequests).toEqual([]);
  });

  it('renames a dataset', async () => {
    await page.getByRole('button', { name: 'Rename Holiday photos' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename Holiday photos' });
    await dialog.getByLabel('New name').fill('Summer 2026');
    await dialog.getByRole('button', { name: 'Save name' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Summer 2026', exact: true }).waitFor();
    expect((await listed(owner)).map((d) => d.display_name)).toEqual(['Summer 2026']);
    // The focus goes back to the button that opened the dialog.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Rename Summer 2026');
  });

  it('shares with a viewer, who sees the dataset but may not delete it, then revokes the access', async () => {
    await page.getByRole('button', { name: 'Share Summer 2026' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share Summer 2026' });
    const people = dialog.getByRole('list', { name: 'Who has access to Summer 2026' });
    await people.getByText(owner.email).waitFor();
    await dialog.getByLabel('User e-mail').fill(viewer.email);
    await dialog.getByLabel('Role').selectOption('viewer');
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    await people.getByText(viewer.email).waitFor();
    expect(await people.getByRole('listitem').allTextContents()).toEqual([`${owner.email}owner`, `${viewer.email}viewerRevoke`]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'datasets-share');

    await dialog.getByLabel('User e-mail').fill('nobody@example.com');
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    const refused = dialog.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toBe('User not found: nobody@example.com');
    await dialog.getByRole('button', { name: 'Done' }).click();

    const other = await openPage(browser, server);
    await signIn(other, viewer, '/datasets');
    await row(other, 'Summer 2026').getByText('READY', { exact: true }).waitFor();
    await other.getByRole('button', { name: 'Delete Summer 2026' }).click();
    const confirm = other.getByRole('dialog', { name: 'Delete Summer 2026?' });
    await confirm.waitFor();
    // The safe choice has the focus, so Enter does not delete.
    expect(await other.evaluate(() => document.activeElement?.textContent)).toBe('Keep it');
    await confirm.getByRole('button', { name: 'Delete dataset' }).click();
    await confirm.getByRole('alert').waitFor();
    expect(await confirm.getByRole('alert').textContent()).toBe('You do not have permission to delete this dataset');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await other.context().close();

    await page.getByRole('button', { name: 'Share Summer 2026' }).click();
    await people.getByText(viewer.email).waitFor();
    await dialog.getByRole('button', { name: `Revoke access of ${viewer.email}` }).click();
    await people.getByText(viewer.email).waitFor({ state: 'detached' });
    expect(await listed(viewer)).toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).click();
  });

  it('fits a phone: the table scrolls inside its frame, not the page', async () => {
    await page.setViewportSize(PHONE);
    try {
      await page.getByRole('link', { name: 'Summer 2026' }).waitFor();
      const overflow = await pageOverflow(page);
      expect(overflow).toBeLessThanOrEqual(0);
      const table = await page.evaluate(() => {
        const wrap = document.querySelector('table')!.parentElement!;
        return { scrolls: wrap.scrollWidth > wrap.clientWidth, overflowX: getComputedStyle(wrap).overflowX };
      });
      expect(table).toEqual({ scrolls: true, overflowX: 'auto' });
      await screenshot(page, 'datasets-list-phone');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('deletes a dataset after the confirmation, and the row goes', async () => {
    await page.getByRole('button', { name: 'Delete Summer 2026' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Summer 2026?' });
    expect(await confirm.getByText(/This deletes the dataset “Summer 2026” with its 3 images and 0 videos/).count()).toBe(1);
    await confirm.getByRole('button', { name: 'Delete dataset' }).click();
    await page.getByRole('link', { name: 'Summer 2026' }).waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'No datasets yet' }).waitFor();
    expect(await listed(owner)).toEqual([]);
  });

  it("shows the server's refusal of a file with its detail, and closing drops the half-made dataset", async () => {
    await page.getByRole('button', { name: 'New dataset' }).click();
    const dialog = page.getByRole('dialog', { name: 'New dataset' });
    await dialog.getByLabel('Dataset name').fill('Broken upload');
    // A whole folder: its eight photos are kept, its SOURCES.md is skipped; then a change of mind.
    await dialog.getByLabel('Choose a folder').setInputFiles(PHOTOS);
    await dialog.getByText('8 files chosen (3.3 MB)').waitFor();
    expect(await dialog.getByText('Skipped 1 file that is not an image or a video.').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Clear files' }).click();
    await dialog.getByText('No images or videos chosen yet.').waitFor();
    // Dropped rather than chosen: the drop zone takes files as a drag from the desktop brings them.
    const drop = await page.evaluateHandle(() => {
      const data = new DataTransfer();
      data.items.add(new File(['this is text, not a JPEG\n'], 'broken.jpg', { type: 'image/jpeg' }));
      data.items.add(new File(['# notes\n'], 'README.md', { type: 'text/markdown' }));
      return data;
    });
    await dialog.getByRole('group', { name: 'Files to upload' }).dispatchEvent('drop', { dataTransfer: drop });
    await dialog.getByText('1 file chosen (0.0 MB)').waitFor();
    expect(await dialog.getByText('Skipped 1 file that is not an image or a video.').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Create and upload' }).click();
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByRole('alert').textContent()).toBe(
      'Unsupported file format: broken.jpg (images: JPEG, PNG, WebP, AVIF, TIFF, GIF, BMP, HEIC; videos: MP4, MOV, WebM, MKV, AVI)',
    );
    expect((await listed(owner)).map((d) => d.display_name)).toEqual(['Broken upload']);
    await dialog.getByRole('button', { name: 'Retry upload' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitFor(async () => ((await listed(owner)).length === 0 ? true : undefined), 10_000, 'the half-made dataset gone');
    await page.getByRole('heading', { name: 'No datasets yet' }).waitFor();
  });

  it('pages the list 100 at a time with Next and Previous', async () => {
    const many = await server.createUser();
    const create = async (i: number) =>
      expect((await server.api(many.token, 'GET', `/api/v1/ingestion/new_dataset?dataset_name=Set%20${i}`)).status).toBe(200);
    // Set 1 is the oldest and Set 101 the newest; the order between them does not matter here.
    await create(1);
    await Promise.all(Array.from({ length: 99 }, (_, i) => create(i + 2)));
    await create(101);
    const other = await openPage(browser, server);
    await signIn(other, many, '/datasets');
    await other.getByRole('link', { name: 'Set 101', exact: true }).waitFor();
    // A header row and 100 datasets, newest first.
    expect(await other.getByRole('row').count()).toBe(101);
    expect(await other.getByRole('link', { name: 'Set 1', exact: true }).count()).toBe(0);
    const pager = other.getByRole('navigation', { name: 'Pages of datasets' });
    expect(await pager.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Next' }).click();
    await other.getByRole('link', { name: 'Set 1', exact: true }).waitFor();
    expect(new URL(other.url()).search).toBe('?page=2');
    expect(await other.getByRole('row').count()).toBe(2);
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Previous' }).click();
    await other.getByRole('link', { name: 'Set 101', exact: true }).waitFor();
    expect(new URL(other.url()).search).toBe('');
    await other.context().close();
  });
});
