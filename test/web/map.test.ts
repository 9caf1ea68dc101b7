import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, overflowOnPhone, screenshot, seriousAxeViolations, signIn } from '../support/browser.js';
import { createDataset, photo } from '../support/ingest.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';

let server: TestServer;
let browser: Browser;
let user: TestUser;
let page: Page;
let datasetId: string;
const FILES = ['coffee.png', 'dog.jpg', 'horses.jpg', 'kite.jpg', 'person.jpg'];

const canvas = () => page.getByRole('img', { name: /^Embedding map/ });

/** The canvas's drawn (not white) pixels, their distinct colours, and the CSS position of the first one found. */
function inkedPixels(p: Page) {
  return p.evaluate(() => {
    const c = document.querySelector('canvas')!;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let count = 0;
    const colours = new Set<string>();
    let first: [number, number] | null = null;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] === 255 && data[i + 1] === 255 && data[i + 2] === 255) continue;
      count++;
      colours.add(data.slice(i, i + 3).join());
      const at = i / 4;
      first ??= [(at % c.width) / devicePixelRatio, Math.floor(at / c.width) / devicePixelRatio];
    }
    return { count, colours: colours.size, first };
  });
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  user = await server.createUser();
  ({ datasetId } = await createDataset(server, user, 'to map', [FILES.map(photo)]));
  page = await openPage(browser, server);
  await signIn(page, user, `/datasets/${datasetId}/map`);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('web app: map tab', () => {
  it('draws every point of the map, coloured, and shows the media under the cursor', async () => {
    const route = await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/map`);
    expect(route.status).toBe(200);
    expect(route.body.total).toBe(5);
    await page.locator('canvas[data-loaded="5"]').waitFor();
    expect(await canvas().getAttribute('data-points')).toBe('5');
    expect(await page.getByRole('progressbar', { name: 'Points loaded' }).getAttribute('value')).toBe('5');
    const ink = await inkedPixels(page);
    expect(ink.count).toBeGreaterThanOrEqual(4);
    // Five different photos: their own clusters at the finest level, so more than one colour.
    expect(ink.colours).toBeGreaterThan(1);
    const box = (await canvas().boundingBox())!;
    await page.mouse.move(box.x + ink.first![0] + 1, box.y + ink.first![1] + 1);
    const tip = page.getByRole('tooltip');
    await tip.getByRole('img').and(page.locator('[alt$=".jpg"], [alt$=".png"]')).waitFor();
    expect(FILES).toContain(await tip.getByRole('img').getAttribute('alt'));
    expect(await tip.textContent()).toBe(await tip.getByRole('img').getAttribute('alt'));

    // The map's bounds are its outermost points: zoomed in about the centre, those leave the canvas; Fit brings them back.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -200);
    await page.waitForFunction(() => Number(document.querySelector('canvas')?.dataset.points) < 5);
    await page.getByRole('button', { name: 'Fit' }).click();
    await page.locator('canvas[data-points="5"]').waitFor();
  });

  it('counts a rectangle drawn over every point as the selection route does, then opens it in Explore', async () => {
    await page.getByRole('button', { name: 'Rectangle' }).click();
    const box = (await canvas().boundingBox())!;
    const sent = page.waitForRequest((r) => r.url().endsWith('/map/selection'));
    await page.mouse.move(box.x + 2, box.y + 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
    await page.mouse.move(box.x + box.width - 2, box.y + box.height - 2, { steps: 3 });
    await page.mouse.up();
    const body = (await sent).postDataJSON();
    expect(Object.keys(body).sort()).toEqual(['limit', 'rect']);
    const answer = await server.api(user.token, 'POST', `/api/v1/dataset/${datasetId}/map/selection`, body);
    expect(answer.status).toBe(200);
    expect(answer.body.count).toBe(5);
    const bar = page.getByRole('region', { name: 'Map selection' });
    await bar.getByText('5 media in the rectangle', { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await overflowOnPhone(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'map');

    await bar.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('dialog').getByLabel('Tag').fill('mapped');
    await page.getByRole('dialog').getByRole('button', { name: 'Add tag' }).click();
    await bar.getByText('Tag “mapped” added to 5 media.').waitFor();
    expect((await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/tags`)).body.tags).toEqual([{ tag: 'mapped', count: 5 }]);
    await bar.getByRole('button', { name: 'Save view' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Whole map');
    await page.getByRole('dialog').getByRole('button', { name: 'Save view' }).click();
    await bar.getByText('View “Whole map” saved: it matches 5 media now.').waitFor();

    await bar.getByRole('link', { name: 'Open in Explore' }).click();
    await page.waitForURL((url) => url.pathname === `/datasets/${datasetId}` && url.searchParams.has('map'));
    await page.waitForFunction((n) => document.querySelectorAll('article img').length === n, FILES.length);
    expect((await page.getByRole('article').getByRole('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).sort()).toEqual(FILES);
    expect(await page.getByText('Inside the shape drawn on the map (4 corners)').count()).toBe(1);
  });

  it('reads the map page after page, then counts a lasso as the selection route does for the polygon it sends', async () => {
    // Pages of 2 points instead of 50,000: five points come in three pages, each cursor the previous page's.
    const asked: string[] = [];
    await page.route('**/api/v1/dataset/*/map?*', (r) => {
      const url = new URL(r.request().url());
      url.searchParams.set('limit', '2');
      asked.push(url.searchParams.get('cursor') ?? '');
      return r.continue({ url: url.toString() });
    });
    await page.goto(`/datasets/${datasetId}/map`);
    await page.locator('canvas[data-loaded="5"]').waitFor();
    await page.unroute('**/api/v1/dataset/*/map?*');
    const ids = (await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/map`)).body.points.media_id as string[];
    expect(asked).toEqual(['', ids[1], ids[3]]);
    expect(await canvas().getAttribute('data-points')).toBe('5');
    await page.getByRole('button', { name: 'Lasso' }).click();
    const box = (await canvas().boundingBox())!;
    const sent = page.waitForRequest((r) => r.url().endsWith('/map/selection'));
    // An ellipse just inside the canvas: every point of the fitted map lies within it or outside it, the route decides.
    const at = (t: number) => [box.x + box.width / 2 + (box.width / 2 - 3) * Math.cos(t), box.y + box.height / 2 + (box.height / 2 - 3) * Math.sin(t)] as const;
    await page.mouse.move(...at(0));
    await page.mouse.down();
    for (let i = 1; i <= 24; i++) await page.mouse.move(...at((i / 24) * 2 * Math.PI));
    await page.mouse.up();
    const body = (await sent).postDataJSON();
    expect(body.polygon.length).toBeGreaterThanOrEqual(20);
    const answer = await server.api(user.token, 'POST', `/api/v1/dataset/${datasetId}/map/selection`, body);
    expect(answer.status).toBe(200);
    await page.getByRole('region', { name: 'Map selection' }).getByText(`${answer.body.count} media in the lasso`, { exact: true }).waitFor();
  });

  it('says when a dataset has no map yet, and shows an error of the points route as the API said it', async () => {
    const empty = await server.api(user.token, 'GET', '/api/v1/ingestion/new_dataset?dataset_name=no%20map');
    await page.goto(`/datasets/${empty.body.dataset_id}/map`);
    await page.getByText('This dataset has no map yet.').waitFor();
    expect(await page.getByText(/^Dataset .* has no embedding map: a map is made when the dataset is indexed/).count()).toBe(1);

    await page.route('**/api/v1/dataset/*/map?*', (r) => r.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ detail: 'The map cannot be read now' }) }));
    await page.goto(`/datasets/${datasetId}/map`);
    await page.getByRole('alert').filter({ hasText: 'The map cannot be read now' }).waitFor();
    await page.unroute('**/api/v1/dataset/*/map?*');
  });
});
