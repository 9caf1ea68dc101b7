import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, launchBrowser, openPage, screenshot, seriousAxeViolations, signIn, pageOverflow } from '../support/browser.js';
import { createDataset, PHOTOS, photo, waitForDataset } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';
import { waitForTask } from '../support/tasks.js';
import path from 'node:path';

let server: TestServer;
let browser: Browser;
let user: TestUser;
let datasetId: string;
let page: Page;
/** A small dataset's copy with the built-in detector's objects, made while the other tests run. */
let enrichedCopy: Promise<string>;

const FILES = ['dog.jpg', 'dog-copy.jpg', 'astronaut.png', 'chelsea.png', 'coffee.png', 'horses.jpg', 'kite.jpg', 'person.jpg'];

const explore = async (query: string) => {
  const res = await server.api(user.token, 'GET', `/api/v1/explore/${datasetId}?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { total_clusters: number; clusters: Array<{ previews: Array<{ file_name: string; media_id: string }> }> };
};
interface ObjectPreview {
  file_name: string;
  label: string;
  width: number;
  height: number;
  bounding_box: { x: number; y: number; width: number; height: number };
}
const cards = () => page.getByRole('article');
/** The file names of the page's thumbnails, in order. */
const shownFiles = async () => page.getByRole('article').getByRole('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')));
const cardCount = async (expected: number) => {
  await page.waitForFunction((n) => document.querySelectorAll('article').length === n && !document.querySelector('[aria-busy="true"]'), expected);
  return cards().count();
};
const url = () => new URL(page.url());
const status = (bar: Locator) => bar.getByRole('status');

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  user = await server.createUser();
  const dog = photo('dog.jpg');
  const batch = [dog, { ...dog, name: 'dog-copy.jpg' }, ...FILES.slice(2).map(photo)];
  const objectsSource = createDataset(server, user, 'Dog and horses', [[dog, photo('horses.jpg')]]);
  ({ datasetId } = await createDataset(server, user, 'Street photos', [batch]));
  enrichedCopy = objectsSource.then(async ({ datasetId: sourceId }) => {
    const started = await server.api(user.token, 'POST', `/api/v1/dataset/${sourceId}/enrich_dataset`, { enrichment_models: { OBJECT_DETECTION: 'vl_object_detector_v00' } });
    expect(started.status, started.text).toBe(200);
    await waitForDataset(server, user, started.body.dataset_id, ['READY', 'ERROR'], 120_000);
    return started.body.dataset_id as string;
  });
  // Awaited in its test; a failure before then is reported there, not as an unhandled rejection.
  enrichedCopy.catch(() => undefined);
  // A custom field, so the filters offer it with its type.
  const csv = new FormData();
  csv.append('file', new Blob([['file_name,iso', 'dog.jpg,100', 'kite.jpg,800', 'horses.jpg,200'].join('\n')]), 'fields.csv');
  const imported = await server.api(user.token, 'POST', `/api/v1/dataset/${datasetId}/custom_metadata`, csv);
  expect(imported.status, imported.text).toBe(202);
  await waitForTask(server, user, datasetId, imported.body.task_id, (t) => ['COMPLETED', 'FAILED'].includes(t.status), 'fields imported', 60_000);
  page = await openPage(browser, server);
  await signIn(page, user);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('web app: the Explore page', () => {
  it("is served as React's production build (the development one renders the grid several times slower)", async () => {
    const html = await (await fetch(`${server.url}/`, { headers: { accept: 'text/html' } })).text();
    const script = await (await fetch(`${server.url}${html.match(/src="(\/assets\/[^"]+\.js)"/)![1]}`)).text();
    expect(script).not.toContain('jsxDEV');
  });

  it('shows the clusters with lazy thumbnails named by file, and changes granularity by the slider', async () => {
    const finest = await explore('threshold=0');
    await page.goto(`/datasets/${datasetId}`);
    await page.getByRole('heading', { name: 'Street photos' }).waitFor();
    expect(await page.getByRole('link', { name: 'Explore' }).getAttribute('aria-current')).toBe('page');
    expect(await cardCount(finest.total_clusters)).toBe(finest.total_clusters);
    // The duplicate pair is one cluster at level 0, the largest, so first.
    expect((await shownFiles()).slice(0, 2).sort()).toEqual(['dog-copy.jpg', 'dog.jpg']);
    expect((await shownFiles()).sort()).toEqual([...FILES].sort());
    const dogImg = page.getByRole('img', { name: 'dog.jpg', exact: true });
    expect(await dogImg.getAttribute('loading')).toBe('lazy');
    expect(await dogImg.getAttribute('decoding')).toBe('async');
    // A thumbnail opens its media's page.
    const dogId = finest.clusters.flatMap((c) => c.previews).find((p) => p.file_name === 'dog.jpg')!.media_id;
    expect(await page.getByRole('link', { name: 'dog.jpg', exact: true }).getAttribute('href')).toBe(`/datasets/${datasetId}/media/${dogId}`);
    await page.getByText('Page 1 of 1').first().waitFor();
    expect(await page.getByRole('button', { name: 'Next' }).first().isDisabled()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'explore-grid');

    const slider = page.getByRole('slider', { name: 'Granularity' });
    expect(await slider.inputValue()).toBe('0');
    await slider.fill('4');
    await page.waitForURL((u) => u.searchParams.get('threshold') === '4');
    const broad = await explore('threshold=4');
    expect(broad.total_clusters).toBeLessThan(finest.total_clusters);
    expect(await cardCount(broad.total_clusters)).toBe(broad.total_clusters);
    expect(await page.locator('output').first().textContent()).toBe('4');
    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has('threshold'));
    expect(await cardCount(finest.total_clusters)).toBe(finest.total_clusters);
    // By keyboard too.
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((u) => u.searchParams.get('threshold') === '1');
    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has('threshold'));
    await cardCount(finest.total_clusters);
  });

  it('sorts by uniqueness in the order the API gives, and pages back from past the last page', async () => {
    const byUniqueness = (await explore('threshold=0&sort_by=uniqueness')).clusters.flatMap((c) => c.previews.map((p) => p.file_name));
    await page.getByLabel('Sort by').selectOption('uniqueness');
    await page.waitForURL((u) => u.searchParams.get('sort') === 'uniqueness');
    await page.waitForFunction((names) => JSON.stringify([...document.querySelectorAll('article img')].map((i) => i.getAttribute('alt'))) === JSON.stringify(names), byUniqueness);
    expect(await shownFiles()).toEqual(byUniqueness);

    await page.goto(`/datasets/${datasetId}?page=2`);
    await page.getByText('This page is past the last one.').waitFor();
    await page.getByText('Page 2 of 1').waitFor();
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.waitForURL((u) => !u.searchParams.has('page'));
    expect(await cardCount(7)).toBe(7);
  });

  it('narrows the grid by an issue filter and a custom field, and clears the filters', async () => {
    await page.getByRole('checkbox', { name: 'Duplicates', exact: true }).check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((u) => u.searchParams.get('issue') === 'duplicates');
    expect(await cardCount(1)).toBe(1);
    expect((await shownFiles()).sort()).toEqual(['dog-copy.jpg', 'dog.jpg']);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL((u) => !u.searchParams.has('issue'));
    await cardCount(7);

    await page.getByLabel('Field').selectOption('iso');
    await page.getByLabel('Condition').selectOption('gt');
    await page.getByLabel('Value').fill('500');
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByText('iso > 500').waitFor();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((u) => u.searchParams.has('field'));
    expect(await cardCount(1)).toBe(1);
    expect(await shownFiles()).toEqual(['kite.jpg']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await cardCount(7);
  });

  it('shows an error of the API with its detail', async () => {
    await page.getByLabel('Minimum uniqueness').fill('0.9');
    await page.getByLabel('Maximum uniqueness').fill('0.1');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('min_uniqueness (0.9) must not be greater than max_uniqueness (0.1)');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await cardCount(7);
  });

  it('finds media similar to a media of the grid, and to an uploaded image', async () => {
    await page.getByRole('button', { name: 'Find similar to kite.jpg' }).click();
    await page.waitForURL((u) => u.searchParams.get('anchor_type') === 'MEDIA');
    await page.getByText('Similar to kite.jpg').waitFor();
    await page.waitForFunction(() => document.querySelector('article img')?.getAttribute('alt') === 'kite.jpg');
    expect((await shownFiles())[0]).toBe('kite.jpg');
    expect(await page.getByLabel('Sort by').inputValue()).toBe('relevance');
    await page.getByRole('button', { name: 'Clear similarity' }).click();
    await page.waitForURL((u) => !u.searchParams.has('anchor'));

    await page.getByLabel('Find similar to an image').setInputFiles(path.join(PHOTOS, 'horses.jpg'));
    await page.waitForURL((u) => u.searchParams.get('anchor_type') === 'UPLOAD');
    await page.getByText('Similar to horses.jpg (uploaded)').waitFor();
    await page.waitForFunction(() => document.querySelector('article img')?.getAttribute('alt') === 'horses.jpg');
    expect((await shownFiles())[0]).toBe('horses.jpg');
    await page.getByRole('button', { name: 'Clear similarity' }).click();
    await page.waitForURL((u) => !u.searchParams.has('anchor'));
    await cardCount(7);
  });

  it('selects two media by click and shift-click, tags them, filters by the tag, and labels one', async () => {
    const bar = page.getByRole('region', { name: 'Selection' });
    await page.getByRole('checkbox', { name: 'Select dog.jpg', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Select dog-copy.jpg' }).click({ modifiers: ['Shift'] });
    await bar.getByText('2 media selected').waitFor();
    await screenshot(page, 'explore-selection');

    await bar.getByRole('button', { name: 'Add tag' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a tag' });
    await dialog.getByLabel('Tag').fill('keep');
    await dialog.getByRole('button', { name: 'Add tag' }).click();
    await status(bar).getByText('Tag “keep” added to 2 media.').waitFor();
    const dogCard = cards().filter({ has: page.getByRole('img', { name: 'dog.jpg', exact: true }) });
    await dogCard.getByText('#keep').waitFor();

    await page.getByRole('checkbox', { name: 'keep (2)' }).check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((u) => u.searchParams.get('tag') === 'keep');
    expect(await cardCount(1)).toBe(1);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await cardCount(7);

    // The selection outlives the filters: the same two media lose the tag again.
    await bar.getByText('2 media selected').waitFor();
    await bar.getByRole('button', { name: 'Remove tag' }).click();
    const removeDialog = page.getByRole('dialog', { name: 'Remove a tag' });
    await removeDialog.getByLabel('Tag').fill('keep');
    await removeDialog.getByRole('button', { name: 'Remove tag' }).click();
    await status(bar).getByText('Tag “keep” removed from 2 media.').waitFor();
    await dogCard.getByText('#keep').waitFor({ state: 'detached' });

    await bar.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByRole('checkbox', { name: 'Select kite.jpg' }).click();
    await bar.getByRole('button', { name: 'Set label' }).click();
    const labelDialog = page.getByRole('dialog', { name: 'Set the label' });
    await labelDialog.getByLabel('Label').fill('kite');
    await labelDialog.getByRole('button', { name: 'Set label' }).click();
    await status(bar).getByText('Label “kite” set on 1 media.').waitFor();
    const kiteCard = cards().filter({ has: page.getByRole('img', { name: 'kite.jpg' }) });
    await kiteCard.getByRole('listitem').filter({ hasText: /^kite$/ }).waitFor();
    const labels = await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/labels`);
    expect(labels.body.labels).toEqual([{ label: 'kite', count: 1 }]);
  });

  it('exports the selection and offers the download', async () => {
    const bar = page.getByRole('region', { name: 'Selection' });
    const dogCard = cards().filter({ has: page.getByRole('img', { name: 'dog.jpg', exact: true }) });
    await dogCard.getByRole('button', { name: 'Select cluster' }).click();
    await bar.getByText('3 media selected (1 whole cluster)').waitFor();
    await bar.getByRole('button', { name: 'Export selection' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export the selection' });
    await dialog.getByLabel('Parquet').check();
    await dialog.getByRole('button', { name: 'Start export' }).click();
    const link = dialog.getByRole('link', { name: 'Download' });
    await link.waitFor({ timeout: 30_000 });
    const download = await page.request.get((await link.getAttribute('href'))!);
    expect(download.status()).toBe(200);
    expect((await download.body()).subarray(0, 2).toString()).toBe('PK');
    // Escape closes the dialog, as a modal <dialog> does.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await bar.getByRole('button', { name: 'Clear selection' }).click();
    await bar.getByText('Nothing selected').waitFor();
  });

  it('saves the current query as a view with its monitoring and alerting switches', async () => {
    await page.getByRole('slider', { name: 'Granularity' }).fill('2');
    await page.waitForURL((u) => u.searchParams.get('threshold') === '2');
    await page.getByRole('button', { name: 'Save view' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as a view' });
    await dialog.getByLabel('Name').fill('Level two');
    expect(await dialog.getByRole('switch', { name: /Monitoring/ }).isChecked()).toBe(true);
    await dialog.getByRole('switch', { name: /Alerting/ }).uncheck();
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await page.getByText('View “Level two” saved: it matches 8 media now.').waitFor();
    const views = await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/views`);
    expect(views.body.views).toHaveLength(1);
    expect(views.body.views[0]).toMatchObject({ name: 'Level two', monitoring_enabled: true, alerting_enabled: false, filters: { threshold: 2, entity_type: 'IMAGES' } });
  });

  it('says so when the dataset has no objects, and draws the boxes of an enriched copy over its thumbnails', async () => {
    await page.getByRole('button', { name: 'Objects' }).click();
    await page.waitForURL((u) => u.searchParams.get('entity') === 'OBJECTS');
    await page.getByText('No objects match: this dataset has no detected objects, or none pass the filters.').waitFor();
    expect(await cards().count()).toBe(0);
    await page.getByRole('button', { name: 'Images' }).click();
    await cardCount((await explore('threshold=2')).total_clusters);

    const copyId = await enrichedCopy;
    const objects = await server.api(user.token, 'GET', `/api/v1/explore/${copyId}?entity_type=OBJECTS&previews_limit=100`);
    const dog = (objects.body.clusters as Array<{ previews: ObjectPreview[] }>).flatMap((c) => c.previews).find((p) => p.file_name === 'dog.jpg' && p.label === 'dog')!;
    expect(dog).toBeDefined();

    await page.goto(`/datasets/${copyId}?entity=OBJECTS`);
    const tile = page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: 'Select dog in dog.jpg' }) }).first();
    await tile.waitFor();
    expect(await page.getByRole('button', { name: 'Objects' }).getAttribute('aria-pressed')).toBe('true');
    // The box sits where the detector put it, scaled from the media's pixels to the thumbnail.
    const img = await tile.getByRole('img', { name: 'dog.jpg' }).boundingBox();
    const box = await tile.getByText('dog', { exact: true }).locator('..').boundingBox();
    const b = dog.bounding_box;
    expect(Math.abs((box!.x - img!.x) / img!.width - b.x / dog.width)).toBeLessThan(0.03);
    expect(Math.abs((box!.y - img!.y) / img!.height - b.y / dog.height)).toBeLessThan(0.03);
    expect(Math.abs(box!.width / img!.width - b.width / dog.width)).toBeLessThan(0.03);
    expect(Math.abs(box!.height / img!.height - b.height / dog.height)).toBeLessThan(0.03);
    await screenshot(page, 'explore-objects');
  }, 150_000);

  it('fits a phone screen', async () => {
    const phone = await openPage(browser, server, PHONE);
    await signIn(phone, user, `/datasets/${datasetId}`);
    await phone.getByRole('article').first().waitFor();
    const overflow = await pageOverflow(phone);
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.getByText('Filters', { exact: true }).click();
    await phone.getByRole('button', { name: 'Apply filters' }).waitFor();
    expect(await pageOverflow(phone)).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(phone)).toEqual([]);
    await screenshot(phone, 'explore-phone');
    await phone.context().close();
  });
});
