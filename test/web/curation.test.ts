import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, overflowOnPhone, screenshot, seriousAxeViolations, signIn } from '../support/browser.js';
import { createDataset, photo } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';

let server: TestServer;
let browser: Browser;
let user: TestUser;
let page: Page;
let datasetId: string;

const rowOf = (name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  user = await server.createUser();
  const dog = photo('dog.jpg');
  const person = photo('person.jpg');
  ({ datasetId } = await createDataset(server, user, 'to curate', [[
    dog,
    { name: 'dog-copy.jpg', bytes: dog.bytes },
    photo('coffee.png'),
    person,
    { name: 'person-gray.jpg', bytes: await sharp(person.bytes).grayscale().jpeg().toBuffer() },
    // Its header reaches the scan data, so the upload takes it; the decoder finds it cut short.
    { name: 'cut.jpg', bytes: person.bytes.subarray(0, Math.floor(person.bytes.length * 0.6)) },
  ]]));
  page = await openPage(browser, server);
  await signIn(page, user, `/datasets/${datasetId}/curation`);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('web app: curation tab', () => {
  it('counts each issue type as the issues route does and lists the corrupt file with its reason', async () => {
    await page.getByRole('heading', { name: 'Curation', level: 2 }).waitFor();
    await rowOf('Exact duplicates').waitFor();
    const route = (await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/issues`)).body;
    expect(route.n_media).toBe(5);
    expect(await page.getByText('5 images and video frames in the current version').count()).toBe(1);
    expect(await rowOf('Exact duplicates').getByRole('cell').allTextContents()).toEqual(['2', '40.0 %']);
    expect(await rowOf('Grayscale').getByRole('cell').allTextContents()).toEqual(['1', '20.0 %']);
    expect((await rowOf('Blurry').getByRole('cell').allTextContents())[0]).toBe(String(route.issues.blur));
    expect(await rowOf('Low information').getByRole('cell').allTextContents()).toEqual(['0', '0 %']);
    expect(await rowOf('Corrupt files').getByRole('cell').allTextContents()).toEqual(['1', '–']);
    expect(await rowOf('Mislabelled objects').getByRole('cell').allTextContents()).toEqual([String(route.object_issues.mislabels), '–']);
    // A type with nothing found is no link.
    expect(await rowOf('Odd size').getByRole('link').count()).toBe(0);
    const corrupt = page.getByRole('table', { name: /failed to decode/ });
    expect(await corrupt.getByRole('row').nth(1).getByRole('rowheader').textContent()).toBe('cut.jpg');
    expect(await corrupt.getByRole('row').nth(1).getByRole('cell').first().textContent()).toBe('cannot decode jpeg image: VipsJpeg: premature end of JPEG image');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await overflowOnPhone(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'curation');
  });

  it('opens Explore filtered by the issue type a row names', async () => {
    await rowOf('Grayscale').getByRole('link', { name: 'Grayscale' }).click();
    await page.waitForURL((url) => url.pathname === `/datasets/${datasetId}` && url.searchParams.getAll('issue').join() === 'grayscale');
    await page.getByRole('checkbox', { name: 'Grayscale' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Grayscale' }).isChecked()).toBe(true);
    await page.getByRole('img', { name: 'person-gray.jpg', exact: true }).waitFor();
    expect(await page.getByRole('article').getByRole('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).toEqual(['person-gray.jpg']);
  });
});
