import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, launchBrowser, openPage, screenshot, seriousAxeViolations, signIn, pageOverflow } from '../support/browser.js';
import { createDataset, photo, threeSceneClip } from '../support/ingest.js';
import { PHOTO_EDITS } from '../support/photo-edits.js';
import { type TestServer, type TestUser, startTestServer } from '../support/server.js';

let server: TestServer;
let browser: Browser;
let user: TestUser;
let datasetId: string;
let page: Page;
const ids = new Map<string, string>();
const dogBytes = photo('dog.jpg').bytes;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  user = await server.createUser();
  const dogHalf = { name: 'dog-half.jpg', bytes: await PHOTO_EDITS['half-q30']!(dogBytes) };
  ({ datasetId } = await createDataset(server, user, 'pets', [[photo('dog.jpg'), dogHalf, photo('coffee.png'), photo('kite.jpg'), photo('horses.jpg')]]));
  const listed = (await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/media?limit=10`)).body.media as Array<{ media_id: string; file_name: string }>;
  for (const m of listed) ids.set(m.file_name, m.media_id);
  // One signed-in page for the whole file: signing in is a page load and an API round of its own.
  page = await openPage(browser, server);
  await signIn(page, user, '/datasets');
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const mediaPath = (file: string) => `/datasets/${datasetId}/media/${ids.get(file)}`;

/** The value a definition list (found by its label) gives a term. */
async function fact(page: Page, list: string, term: string): Promise<string | null> {
  return page.getByLabel(list, { exact: true }).locator(`dt:text-is("${term}") + dd`).textContent();
}

describe('web app: media detail', () => {
  it('opens a media from its URL with its preview, facts, near-duplicate and neighbours; a neighbour link opens its page', async () => {
    await page.goto(mediaPath('dog.jpg'));
    await page.getByRole('heading', { name: 'dog.jpg', level: 2 }).waitFor();
    expect(await fact(page, 'File facts', 'Name')).toBe('dog.jpg');
    expect(await fact(page, 'File facts', 'Type')).toBe('IMAGE');
    expect(await fact(page, 'File facts', 'Size')).toBe(`${(dogBytes.length / 1024).toFixed(1)} KB`);
    expect(await fact(page, 'File facts', 'Dimensions')).toBe('768 × 576');
    expect(await fact(page, 'File facts', 'Format')).toBe('jpeg (image/jpeg)');
    const preview = page.getByRole('img', { name: 'dog.jpg', exact: true });
    await page.waitForFunction(() => [...document.images].some((img) => img.alt === 'dog.jpg' && img.complete && img.naturalWidth > 0));
    expect(await preview.count()).toBe(1);

    // The API groups the half-size copy with the original; the page lists it and links to it.
    const api = await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/media/${ids.get('dog.jpg')}/duplicates`);
    expect(api.body.duplicates).toEqual([ids.get('dog-half.jpg')]);
    const duplicates = page.getByRole('list', { name: 'Near-duplicates' });
    await duplicates.getByRole('link', { name: 'dog-half.jpg' }).first().waitFor();
    expect(await duplicates.getByRole('link', { name: 'dog-half.jpg' }).first().getAttribute('href')).toBe(mediaPath('dog-half.jpg'));

    const neighbours = page.getByRole('list', { name: 'Nearest neighbours' });
    await neighbours.getByRole('link').first().waitFor();
    const names = await neighbours.getByRole('link').evaluateAll((links) => links.map((a) => a.querySelector('img')?.alt ?? ''));
    expect(names[0]).toBe('dog-half.jpg');
    expect(names).not.toContain('dog.jpg');
    expect(new Set(names)).toEqual(new Set(['dog-half.jpg', 'coffee.png', 'kite.jpg', 'horses.jpg']));
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'media-detail');

    await neighbours.getByRole('link', { name: 'kite.jpg' }).click();
    await page.getByRole('heading', { name: 'kite.jpg', level: 2 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(mediaPath('kite.jpg'));
    await page.getByRole('link', { name: '← Back to the grid' }).click();
    expect(new URL(page.url()).pathname).toBe(`/datasets/${datasetId}`);
  });

  it('adds a tag, sets a label and removes the tag; they hold after a reload', async () => {
    await page.goto(mediaPath('coffee.png'));
    await page.getByRole('heading', { name: 'coffee.png', level: 2 }).waitFor();
    await page.getByLabel('New tag').fill('morning');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('button', { name: 'Remove tag morning' }).waitFor();
    await page.getByLabel('Label', { exact: true }).fill('drink');
    await page.getByRole('button', { name: 'Set label' }).click();
    await page.getByText('Current label: drink').waitFor();

    await page.reload();
    await page.getByRole('button', { name: 'Remove tag morning' }).waitFor();
    expect(await page.getByRole('list', { name: 'Tags' }).getByRole('listitem').allTextContents()).toEqual(['morning×']);
    expect(await page.getByLabel('Label', { exact: true }).inputValue()).toBe('drink');
    const stored = (await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/media/${ids.get('coffee.png')}`)).body;
    expect(stored).toMatchObject({ tags: ['morning'], label: 'drink' });

    await page.getByRole('button', { name: 'Remove tag morning' }).click();
    await page.getByText('No tags.').waitFor();
    expect((await server.api(user.token, 'GET', `/api/v1/dataset/${datasetId}/media/${ids.get('coffee.png')}`)).body.tags).toEqual([]);
  });

  it('draws the detected objects over the preview at the size it is shown, and lists them with the caption', async () => {
    // What an enrichment writes into the version rows (the built-in models take a minute: the enrichment contract test runs them).
    // Every version's row of the media: the tag edits above made new versions that may read it from their base.
    const objects = [{ object_id: crypto.randomUUID(), label: 'dog', score: 0.91, box: { x: 192, y: 144, width: 384, height: 288 }, caption: 'a brown dog' }];
    const updated = await server.loupe.container.database.db
      .updateTable('version_rows')
      .set({ caption: 'a dog next to a bicycle', objects: JSON.stringify(objects) })
      .where('media_id', '=', ids.get('dog.jpg')!)
      .executeTakeFirst();
    expect(Number(updated.numUpdatedRows)).toBeGreaterThanOrEqual(1);

    await page.goto(mediaPath('dog.jpg'));
    await page.getByText('a dog next to a bicycle').waitFor();
    expect(await page.getByRole('list', { name: 'Detected objects' }).getByRole('listitem').allTextContents()).toEqual(['dog (91 %) — a brown dog']);
    const image = await page.getByRole('img', { name: 'dog.jpg', exact: true }).boundingBox();
    const box = await page.getByText('dog', { exact: true }).locator('..').boundingBox();
    // The box covers the middle half of the picture in each direction, whatever size the picture is shown at.
    const near = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThan(1.5);
    near(box!.x - image!.x, image!.width / 4);
    near(box!.y - image!.y, image!.height / 4);
    near(box!.width, image!.width / 2);
    near(box!.height, image!.height / 2);
    await screenshot(page, 'media-detail-objects');
  });

  it('shows a video with its frames on a strip, each opening the frame, which links back to its video', async () => {
    const clip = await createDataset(server, user, 'clips', [[{ name: 'scenes.mp4', bytes: threeSceneClip() }]]);
    const video = (await server.api(user.token, 'GET', `/api/v1/dataset/${clip.datasetId}/media?media_type=VIDEO`)).body.media[0];
    expect(video.frames).toEqual([]);
    const detail = (await server.api(user.token, 'GET', `/api/v1/dataset/${clip.datasetId}/media/${video.media_id}`)).body;
    expect(detail.frames.length).toBeGreaterThanOrEqual(2);
    await page.goto(`/datasets/${clip.datasetId}/media/${video.media_id}`);
    await page.getByRole('heading', { name: 'scenes.mp4', level: 2 }).waitFor();
    const strip = page.getByRole('list').filter({ has: page.getByRole('link', { name: /^scenes\.mp4 at / }) });
    expect(await strip.getByRole('link').count()).toBe(detail.frames.length);
    await page.waitForFunction(() => [...document.images].filter((img) => img.alt.startsWith('scenes.mp4 at ') && img.naturalWidth > 0).length >= 2);
    await page.getByText('A video is compared through its frames: open a frame to see its neighbours.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, 'media-video');
    const second = detail.frames[1];
    await strip.getByRole('link').nth(1).click();
    await page.getByRole('link', { name: 'its video' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/datasets/${clip.datasetId}/media/${second.media_id}`);
    expect(await fact(page, 'File facts', 'Type')).toBe('VIDEO_FRAME');
    // A frame has neighbours of its own: the other frames of the clip.
    await page.getByRole('list', { name: 'Nearest neighbours' }).getByRole('link', { name: 'scenes.mp4' }).first().waitFor();
    await page.getByRole('link', { name: 'its video' }).click();
    await page.getByRole('heading', { name: 'scenes.mp4', level: 2 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/datasets/${clip.datasetId}/media/${video.media_id}`);
  });

  it('shows the API detail for an unknown media id', async () => {
    await page.goto(`/datasets/${datasetId}/media/${crypto.randomUUID()}`);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('Media not found');
    await page.getByRole('link', { name: '← Back to the grid' }).waitFor();
  });

  it('fits a phone screen', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(mediaPath('dog.jpg'));
    await page.getByRole('list', { name: 'Nearest neighbours' }).getByRole('link').first().waitFor();
    const overflow = await pageOverflow(page);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'media-detail-phone');
  });
});
